/**
 * The service's parameter rules as the sandbox applies them to a query string (docs/service.md,
 * "Endpoints"). Every value arrives as text; each rule reads the text and gives the typed value
 * (a number, a boolean, Unix seconds) or says what is allowed. Written apart from the endpoints'
 * tool arguments, so that each witnesses the other (test/sandbox/parity.test.ts).
 */
import { z } from 'zod';
import { serviceTime, TIME_RULE } from './time.js';

/** The most items of an id, slug or symbol list, and the longest item of each. */
export const LIST = { items: 1000, idDigits: 10, slugChars: 64, symbolChars: 20, currencyChars: 10 } as const;
/** The largest offset without a documented maximum. */
export const MAX_OFFSET = 1_000_000;

const WHOLE = /^-?\d+$/;
const DECIMAL = /^-?\d+(?:\.\d+)?$/;

/** A whole number from `min` to `max`, written in plain decimal digits. */
export function whole(min: number, max: number) {
  const rule = `must be a whole number from ${min} to ${max}`;
  return z
    .string()
    .regex(WHOLE, `is not a plain decimal number; it ${rule}`)
    .transform(Number)
    .pipe(z.number().min(min, rule).max(max, rule));
}

/** A number from `min` to `max`, written in plain decimal (no exponent, no hex, no sign but minus). */
export function decimal(min: number, max: number) {
  const rule = `must be a number from ${min} to ${max}`;
  return z
    .string()
    .regex(DECIMAL, `is not a plain decimal number; it ${rule}`)
    .transform(Number)
    .pipe(z.number().min(min, rule).max(max, rule));
}

/** One of `values`. */
export function choice<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `must be one of ${values.join(', ')}` });
}

/** true or false. */
export function flag() {
  return z.enum(['true', 'false'], { error: 'must be true or false' }).transform((v) => v === 'true');
}

/** A time (Unix seconds or ISO 8601), given to handlers as Unix seconds. */
export function time() {
  return z.string().transform((text, ctx) => {
    const seconds = text.length <= 40 ? serviceTime(text) : undefined;
    if (seconds === undefined) ctx.addIssue({ code: 'custom', message: TIME_RULE });
    return seconds ?? 0;
  });
}

/** One item matching `pattern`, at most `chars` long. */
export function one(pattern: RegExp, chars: number, rule: string) {
  return z.string().max(chars, rule).regex(pattern, rule);
}

interface ListRule {
  item: RegExp;
  chars: number;
  most: number;
  /** What the items are, e.g. "numeric ids". */
  what: string;
  example: string;
  /** What each item holds, when the pattern says more than `what`: "letters, digits, $, @ and hyphen". */
  each?: string;
  /** Refuse an item named twice (letter case aside): currencies, each returned once and charged. */
  once?: boolean;
  /** Said after the count: " (USD and up to 3 others)". */
  note?: string;
}

/** A comma list, kept as its text: each mistake named on its own, the first one found. */
export function commaList(rule: ListRule) {
  const each = rule.each ? `${rule.each}, ` : '';
  const shape = `must be ${rule.what} separated by commas, each of ${each}at most ${rule.chars} characters, e.g. "${rule.example}"`;
  return z
    .string()
    .max(rule.most * (rule.chars + 1), `must name at most ${rule.most} ${rule.what}${rule.note ?? ''}`)
    .superRefine((text, ctx) => {
      const problem = listProblem(text, rule, shape);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });
}

function listProblem(text: string, rule: ListRule, shape: string): string | undefined {
  if (text === '') return `is empty: name at least one, e.g. "${rule.example}"`;
  if (/\s/.test(text)) return `holds a space: separate the ${rule.what} with commas, e.g. "${rule.example}"`;
  const items = text.split(',');
  if (items.includes('')) return `has an empty item: one comma between ${rule.what}, none at either end`;
  if (items.length > rule.most) return `must name at most ${rule.most} ${rule.what}${rule.note ?? ''}`;
  if (!items.every((item) => item.length <= rule.chars && rule.item.test(item))) return shape;
  if (rule.once) {
    const seen = new Set<string>();
    for (const item of items) {
      if (seen.has(item.toUpperCase())) return `names ${item} twice; name each once`;
      seen.add(item.toUpperCase());
    }
  }
  return undefined;
}

export const ids = () =>
  commaList({
    item: /^\d+$/,
    chars: LIST.idDigits,
    most: LIST.items,
    what: 'numeric ids',
    example: '1,1027',
  });
export const slugs = () =>
  commaList({
    item: /^[0-9a-z-]+$/,
    chars: LIST.slugChars,
    most: LIST.items,
    what: 'lowercase slugs',
    example: 'bitcoin,ethereum',
  });
export const symbols = () =>
  commaList({
    item: /^[0-9A-Za-z$@-]+$/,
    chars: LIST.symbolChars,
    most: LIST.items,
    what: 'symbols',
    example: 'BTC,ETH',
  });

/** `convert`: up to `most` currency symbols, each of letters, digits, $, @ and hyphen. */
export const currencies = (most: number, note = '') =>
  commaList({
    item: /^[0-9A-Za-z$@-]+$/,
    chars: LIST.currencyChars,
    most,
    what: 'currencies',
    each: 'letters, digits, $, @ and hyphen',
    example: 'USD,EUR',
    once: true,
    note,
  });

/** `convert_id`: up to `most` currencies by numeric id. */
export const currencyIds = (most: number) =>
  commaList({
    item: /^\d+$/,
    chars: LIST.idDigits,
    most,
    what: 'numeric ids',
    example: '2781,2790',
    once: true,
  });

/** A comma list of names, each one of `allowed`. */
export function names(allowed: readonly string[]) {
  return z.string().superRefine((text, ctx) => {
    const unknown = text.split(',').find((name) => !allowed.includes(name));
    if (unknown !== undefined)
      ctx.addIssue({
        code: 'custom',
        message: `"${unknown.slice(0, 40)}" is not one of ${allowed.join(', ')}; send a comma list of them`,
      });
  });
}

/** A rule between parameters: it names the parameter at fault and what is wrong. */
export type Rule = (params: Record<string, unknown>) => { name: string; message: string } | undefined;

/** `a` and `b` not both. */
export const exclusive =
  (a: string, b: string): Rule =>
  (p) =>
    p[a] !== undefined && p[b] !== undefined
      ? { name: b, message: `must not be combined with ${a}: send one of them` }
      : undefined;

/** Exactly one of `keys`; none is named by no parameter (name ''). */
export const exactlyOne =
  (...keys: string[]): Rule =>
  (p) => {
    const given = keys.filter((k) => p[k] !== undefined);
    if (given.length === 1) return undefined;
    const list = (q: string) =>
      `${keys
        .slice(0, -1)
        .map((k) => `${q}${k}${q}`)
        .join(', ')} or ${q}${keys.at(-1)}${q}`;
    if (given.length === 0) return { name: '', message: `one of ${list('"')} is required` };
    return { name: given[1] ?? '', message: `send only one of ${list('')}, not ${given.join(' and ')}` };
  };

/** `first` not after `second` (numbers: times in seconds, or amounts). */
export const inOrder =
  (first: string, second: string, words = 'after'): Rule =>
  (p) => {
    const a = p[first];
    const b = p[second];
    return typeof a === 'number' && typeof b === 'number' && a > b
      ? { name: first, message: `must not be ${words} ${second}` }
      : undefined;
  };

export const convertRule = exclusive('convert', 'convert_id');
export const timeRule = inOrder('time_start', 'time_end');

/** `convert` and `convert_id`, up to `most` currencies; pair with convertRule. */
export const convert = (most: number, note = '') => ({
  convert: currencies(most, note).optional(),
  convert_id: currencyIds(most).optional(),
});
/** A series' range: each end optional, given to handlers as Unix seconds. */
export const range = () => ({ time_start: time().optional(), time_end: time().optional() });
export const oneId = () => one(/^\d+$/, 20, 'must be one numeric id, e.g. 1');
export const oneSlug = () => one(/^[0-9a-z-]+$/, 100, 'must be one lowercase slug, e.g. bitcoin');
export const oneSymbol = () => one(/^[0-9A-Za-z$@-]+$/, 40, 'must be one symbol, e.g. BTC');
export const offset = () => whole(1, MAX_OFFSET).default(1);
