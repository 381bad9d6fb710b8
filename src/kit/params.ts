/**
 * The spec's parameter rules as zod pieces, with which the tools check arguments before anything is
 * sent (arguments.ts says a refusal). (The sandbox checks the same rules from its own table.)
 */

import { z } from 'zod';
import { clip } from '../messages.js';
import { parseTime, timeProblem } from './time.js';

export { parseTime } from './time.js';

const CURRENCY_SYMBOL = /^[A-Za-z0-9$@-]+$/;
const ID_LIST = /^\d+(?:,\d+)*$/;
const SLUG_LIST = /^[0-9a-z-]+(?:,[0-9a-z-]+)*$/;
const SYMBOL_LIST = /^[0-9A-Za-z$@-]+(?:,[0-9A-Za-z$@-]+)*$/;

/**
 * Every string parameter has a length bound, derived from its rule, so that no argument turns into a
 * URL the service refuses (or a megabyte of text in a log): items of a list and how many there may be.
 */
export const BOUNDS = {
  /** Ids, slugs or symbols in one list. */
  listItems: 1000,
  idDigits: 10,
  slugChars: 64,
  symbolChars: 20,
  /** A convert currency symbol (fiat or crypto). */
  currencyChars: 10,
} as const;

/**
 * A comma list as a model writes it: spaces around its items are dropped before any check, so
 * that "BTC, ETH" asks (and is cached and sent) as "BTC,ETH". The value stays a string. The
 * mistakes made writing one are each named, before any other check: nothing at all, a space where
 * a comma belongs, an empty item.
 */
export function listText(what = 'items', example = 'BTC, ETH') {
  const once = { abort: true };
  return z
    .string()
    .overwrite((value) => value.trim().replace(/\s*,\s*/g, ','))
    .refine((v) => v !== '', { ...once, message: `is empty: name at least one, e.g. "${example}"` })
    .refine((v) => !/\s/.test(v), {
      ...once,
      message: `holds a space: separate the ${what} with commas, e.g. "${example}"`,
    })
    .refine((v) => !splitList(v).includes(''), {
      ...once,
      message: `has an empty item: one comma between ${what}, none at either end, e.g. "${example}"`,
    });
}

/** A comma list of at most `items` entries of at most `chars` characters each, checked by length first. */
function boundedList(
  pattern: RegExp,
  items: number,
  chars: number,
  what: string,
  example: string,
  lower = false,
) {
  const rule = `must be at most ${items} ${what} of at most ${chars} characters each, separated by commas, e.g. "${example}"`;
  return listText(what, example)
    .overwrite((v) => (lower ? v.toLowerCase() : v))
    .max(items * (chars + 1) - 1, rule)
    .regex(pattern, rule)
    .refine((v) => {
      const list = splitList(v);
      return list.length <= items && list.every((item) => item.length <= chars);
    }, rule);
}

/** Every tool's `format`: the compact text summary or the structured data as JSON. */
export const formatParam = z.enum(['text', 'json']).default('text').describe('json: data as JSON.');

export function splitList(value: string): string[] {
  return value.split(',');
}

/**
 * Refuses a currency named twice (letter case aside): the service charges each one named, and the
 * answer holds it once.
 */
function eachCurrencyOnce(value: string | undefined, context: z.RefinementCtx): void {
  const seen = new Set<string>();
  for (const item of splitList(value ?? '')) {
    const key = item.toUpperCase();
    if (seen.has(key)) {
      context.addIssue({
        code: 'custom',
        message: `names ${clip(item, 20)} twice; name each currency once (each beyond the first costs a credit)`,
      });
      return;
    }
    seen.add(key);
  }
}

/** `convert`: comma-separated currency symbols, each of letters, digits, $, @ and hyphen. */
export function convertParam(max: number, note = '') {
  const chars = BOUNDS.currencyChars;
  return listText('currencies', 'USD, EUR')
    .max(
      max * (chars + 1) - 1,
      `must be at most ${max} currencies${note} of at most ${chars} characters each`,
    )
    .refine((v) => splitList(v).every((s) => CURRENCY_SYMBOL.test(s) && s.length <= chars), {
      message: `each currency symbol may hold only letters, digits, $, @ and hyphen (at most ${chars}), separated by commas`,
    })
    .refine((v) => splitList(v).length <= max, {
      message: `at most ${max} currencies${note}`,
    })
    .superRefine(eachCurrencyOnce)
    .optional()
    .describe(
      `Currencies to quote in, comma-separated symbols (fiat or crypto), e.g. "USD, EUR, BTC"; up to ${max}${note}; default USD. Not together with convert_id. Each currency beyond the first costs 1 more credit.`,
    );
}

/** `convert_id`: the same as convert, by numeric id (USD is 2781, EUR 2790, BTC 1). */
export function convertIdParam(max: number) {
  return listText('ids', '2781, 2790')
    .max(
      max * (BOUNDS.idDigits + 1) - 1,
      `must be at most ${max} ids of at most ${BOUNDS.idDigits} digits each`,
    )
    .regex(ID_LIST, { message: 'must be numeric ids separated by commas, e.g. "2781,2790"' })
    .refine((v) => splitList(v).length <= max, { message: `at most ${max} ids` })
    .refine((v) => splitList(v).every((id) => id.length <= BOUNDS.idDigits), {
      message: `each id must be at most ${BOUNDS.idDigits} digits`,
    })
    .superRefine(eachCurrencyOnce)
    .optional()
    .describe(
      `Currencies to quote in by numeric id, comma-separated (USD 2781, EUR 2790, BTC 1); up to ${max}. Not together with convert.`,
    );
}

/** Time bound: Unix seconds or ISO 8601, a real instant from 2010 to tomorrow. */
export function timeParam(what: string) {
  return z
    .union([z.string(), z.number()], {
      error: 'must be a date and time, as Unix seconds or ISO 8601 (e.g. 2026-11-01T00:00:00Z)',
    })
    .superRefine((v, context) => {
      const problem = timeProblem(v);
      if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
    })
    .optional()
    .describe(`${what}: Unix seconds or ISO 8601 (e.g. 2026-11-01T00:00:00Z).`);
}

/** The largest offset or count a parameter without a documented maximum takes: every number is bounded. */
export const MAX_UNBOUNDED_INT = 1_000_000;

/** A whole number from `min` to `max` (undefined: to MAX_UNBOUNDED_INT). */
export function intParam(min: number, max: number | undefined, description: string) {
  return z
    .number()
    .int()
    .min(min)
    .max(max ?? MAX_UNBOUNDED_INT)
    .describe(description);
}

/** One of `values`; the schema's enum lists them, so the description need not (nor any, when the name says it). */
export function enumParam<const T extends readonly [string, ...string[]]>(values: T, description?: string) {
  return description === undefined ? z.enum(values) : z.enum(values).describe(description);
}

/** A comma list whose every item must be one of `allowed` (the description lists them). */
export function namesListParam(allowed: readonly string[], description: string) {
  return listText('names', allowed.slice(0, 2).join(', '))
    .max(allowed.join(',').length, 'names one more than once')
    .superRefine((v, context) => {
      const unknown = splitList(v).find((name) => !allowed.includes(name));
      if (unknown !== undefined)
        context.addIssue({
          code: 'custom',
          message: `"${clip(unknown, 40)}" is not one of ${allowed.join(', ')}`,
        });
    })
    .optional()
    .describe(`${description} Comma list of: ${allowed.join(', ')}.`);
}

export const idListParam = boundedList(ID_LIST, BOUNDS.listItems, BOUNDS.idDigits, 'numeric ids', '1, 1027');
export const slugListParam = boundedList(
  SLUG_LIST,
  BOUNDS.listItems,
  BOUNDS.slugChars,
  'slugs',
  'bitcoin, ethereum',
  // Every slug is lower case: one written in capitals means the same one.
  true,
);
export const symbolListParam = boundedList(
  SYMBOL_LIST,
  BOUNDS.listItems,
  BOUNDS.symbolChars,
  'symbols',
  'BTC, ETH',
);

type Issue = { path: string; message: string };
/** A rule between parameters, as paramsObject takes it. */
export type Rule = (value: Record<string, unknown>, add: (issue: Issue) => void) => void;

/** `a` and `b` must not both be given. */
export function notTogether(a: string, b: string): Rule {
  return (value, add) => {
    if (value[a] !== undefined && value[b] !== undefined) {
      add({ path: b, message: `must not be combined with ${a}: send one of them` });
    }
  };
}

/** Rules between parameters: convert and convert_id are exclusive. */
export const convertExclusive = notTogether('convert', 'convert_id');

/** Rules between parameters: time_start must not be after time_end. */
export const timeOrder: Rule = (value, add) => {
  if (value.time_start === undefined || value.time_end === undefined) return;
  const start = parseTime(value.time_start as string | number);
  const end = parseTime(value.time_end as string | number);
  if (start !== undefined && end !== undefined && start > end) {
    add({ path: 'time_start', message: 'must not be after time_end' });
  }
};

/** A strict object (unknown parameters are refused) with cross-parameter rules attached. */
export function paramsObject<T extends z.ZodRawShape>(shape: T, ...rules: Rule[]) {
  const object = z.strictObject(shape);
  if (rules.length === 0) return object;
  return object.superRefine((value, ctx) => {
    for (const rule of rules) {
      rule(value as Record<string, unknown>, ({ path, message }) =>
        ctx.addIssue({ code: 'custom', path: [path], message }),
      );
    }
  });
}
