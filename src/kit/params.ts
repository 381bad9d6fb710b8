/**
 * The spec's parameter rules as zod pieces, with which the tools check arguments before anything is
 * sent, and the sentence a refusal says. (The sandbox checks the same rules from its own table.)
 */

import { z } from 'zod';
import { clip, closestName } from '../messages.js';
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
function boundedList(pattern: RegExp, items: number, chars: number, what: string, example: string) {
  const rule = `must be at most ${items} ${what} of at most ${chars} characters each, separated by commas, e.g. "${example}"`;
  return listText(what, example)
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
    .union([z.string(), z.number()])
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
        context.addIssue({ code: 'custom', message: `"${clip(unknown, 40)}" is not one of its values` });
    })
    .optional()
    .describe(`${description} Comma list of: ${allowed.join(', ')}.`);
}

export const idListParam = boundedList(ID_LIST, BOUNDS.listItems, BOUNDS.idDigits, 'numeric ids', '1, 1027');
export const slugListParam = boundedList(
  SLUG_LIST,
  BOUNDS.listItems,
  BOUNDS.slugChars,
  'lowercase slugs',
  'bitcoin, ethereum',
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

export type ParamsResult<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * Validate arguments against an endpoint's schema and turn the first problem into one sentence
 * that names the parameter, the value and what is allowed.
 */
export function validateParams<S extends z.ZodObject>(schema: S, args: unknown): ParamsResult<z.output<S>> {
  const input = args ?? {};
  if (typeof input === 'object' && !Array.isArray(input)) {
    // Checked here, not by zod alone: a `__proto__` key is dropped silently by zod, and by the time
    // arguments reach us a JSON parser may already have made it the object's prototype, whose
    // fields zod would then read as if they were arguments.
    const prototype = Object.getPrototypeOf(input);
    const polluted = prototype !== Object.prototype && prototype !== null;
    const unknown = polluted
      ? '__proto__'
      : Object.keys(input).find((key) => !Object.hasOwn(schema.shape, key));
    if (unknown !== undefined) return { ok: false, message: unknownParameter(schema, unknown) };
  }
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    // A failed parse has at least one issue.
    message: describeIssue(schema, result.error.issues[0]!, input as Record<string, unknown>),
  };
}

/** `"calls", at calls[0].arguments`: a place inside a parameter, named by the parameter and the path. */
function where(path: readonly PropertyKey[]): string {
  return `"${clip(String(path[0]), 40)}", at ${pathText(path)}`;
}

/** "Unknown member … in "calls", at calls[1]; …": a key an object inside a parameter does not take. */
export function unknownMember(path: readonly PropertyKey[], key: string): string {
  return `Unknown member "${clip(key, 40)}" in ${where(path)}; see the parameter's description for what it takes.`;
}

/** "Unknown parameter …: did you mean …? This endpoint takes: …" */
export function unknownParameter(schema: z.ZodObject, name: string): string {
  const allowed = Object.keys(schema.shape);
  const meant = closestName(name, allowed);
  const guess = meant === undefined ? '' : `: did you mean "${meant}"?`;
  return `Unknown parameter "${clip(name, 40)}"${guess}${guess ? ' This' : '; this'} endpoint takes: ${allowed.length ? allowed.join(', ') : 'none'}.`;
}

function describeIssue(schema: z.ZodObject, issue: z.core.$ZodIssue, input: Record<string, unknown>): string {
  // Inside a parameter (estimate_cost's calls[0].arguments): named by its whole path.
  if (issue.path.length > 1 || (issue.code === 'unrecognized_keys' && issue.path.length > 0)) {
    if (issue.code === 'unrecognized_keys') return unknownMember(issue.path, issue.keys[0] ?? '');
    return `Invalid value in ${where(issue.path)}: ${problemOf(issue, valueAt(input, issue.path), undefined)}.`;
  }
  if (issue.code === 'unrecognized_keys') return unknownParameter(schema, issue.keys[0] ?? '');
  const name = String(issue.path[0] ?? '');
  // A rule over several parameters none of which was sent (one of id, slug or symbol).
  if (name === '') return `Missing parameter: ${lowerFirst(issue.message)}.`;
  const field = schema.shape[name] as z.ZodType | undefined;
  const value = input?.[name];
  if (value === undefined && issue.code !== 'custom') {
    const bounds = boundsOf(field);
    return `Missing parameter "${name}": it is required${bounds ? ` (${bounds})` : ''}.`;
  }
  return `Invalid value for "${name}": ${problemOf(issue, value, field)}${elsewhere(schema, name, value, issue)}.`;
}

/**
 * What is wrong with a value, in words that name it and say what is allowed (the schema's bounds,
 * the rule's own message), never the validator's wording or a field's description.
 */
function problemOf(issue: z.core.$ZodIssue, value: unknown, field: z.ZodType | undefined): string {
  const bounds = boundsOf(field);
  const shown = clip(JSON.stringify(value) ?? String(value), 40);
  if (typeof value === 'string' && value.trim() === '' && issue.code !== 'custom') return 'is empty';
  // A rule's own message says what it allows: only the validator's wording is put in ours.
  if (!/^(Too (big|small)|Invalid (input|option))\b/.test(issue.message)) return lowerFirst(issue.message);
  switch (issue.code) {
    case 'invalid_value':
      return `${shown} is not ${bounds ?? 'one of its values'}`;
    case 'invalid_type':
      if (typeof value === 'number') return `${shown} is not ${bounds ?? expectedWords(issue.expected)}`;
      return `must be ${bounds ?? expectedWords(issue.expected)}, not ${typeWords(value)} (${shown})`;
    case 'too_big':
    case 'too_small':
      if (typeof value === 'number') return `${shown} is out of range: ${bounds ?? 'see the tool'}`;
      if (typeof value === 'string') {
        const most = issue.code === 'too_big' ? `at most ${issue.maximum}` : `at least ${issue.minimum}`;
        return `is too ${issue.code === 'too_big' ? 'long' : 'short'}: ${most} characters (got ${value.length})`;
      }
      break;
  }
  return lowerFirst(issue.message);
}

function expectedWords(expected: string): string {
  const words: Record<string, string> = {
    string: 'text',
    number: 'a number',
    int: 'a whole number',
    boolean: 'true or false',
    object: 'an object',
    record: 'an object',
    array: 'a list',
  };
  return words[expected] ?? expected;
}

/** The value at `path` inside the arguments, if there is one. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function typeWords(value: unknown): string {
  if (typeof value === 'string') return 'text';
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** "; interval takes it: send interval=weekly": another parameter taking the value, unless the issue says. */
function elsewhere(schema: z.ZodObject, name: string, value: unknown, issue: z.core.$ZodIssue): string {
  if (typeof value !== 'string') return '';
  for (const [other, field] of Object.entries(schema.shape)) {
    const base = unwrap(field as z.ZodType, () => false);
    if (other !== name && base instanceof z.ZodEnum && (base.options as unknown[]).includes(value)) {
      return issue.message.includes(`send ${other}=`) ? '' : `; ${other} takes it: send ${other}=${value}`;
    }
  }
  return '';
}

/**
 * What the schema itself allows, said in words (descriptions are kept short for the tool list, so
 * a refusal spells the bounds out): "one of 5m, 15m, daily", "a whole number from 1 to 500".
 */
function boundsOf(field: z.ZodType | undefined): string | undefined {
  const base = unwrap(field, () => false);
  if (base instanceof z.ZodEnum) return `one of ${base.options.join(', ')}`;
  if (!(base instanceof z.ZodNumber)) return undefined;
  const kind = base.isInt ? 'a whole number' : 'a number';
  const { minValue: min, maxValue: max } = base;
  // zod's whole numbers are bounded by the safe integers, which says nothing here.
  const finite = (v: number | null): v is number => v !== null && Math.abs(v) < Number.MAX_SAFE_INTEGER;
  if (finite(min) && finite(max)) return `${kind} from ${min} to ${max}`;
  if (finite(min)) return `${kind} of at least ${min}`;
  return finite(max) ? `${kind} of at most ${max}` : undefined;
}

/** `calls[0].arguments`: a path into the arguments as one would write it. */
function pathText(path: readonly PropertyKey[]): string {
  return path
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i > 0 ? '.' : ''}${clip(String(key), 40)}`))
    .join('');
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** Unwraps optional and default layers, which do not carry the inner description or type. */
function unwrap(field: z.ZodType | undefined, stop: (f: z.ZodType) => boolean): z.ZodType | undefined {
  let current = field;
  while (current && !stop(current) && (current.def.type === 'optional' || current.def.type === 'default')) {
    current = (current.def as unknown as { innerType: z.ZodType }).innerType;
  }
  return current;
}
