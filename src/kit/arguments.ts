/**
 * Arguments checked against a tool's input schema before anything is sent, and the first problem
 * said in one sentence that names the parameter, the value and what is allowed.
 */
import { z } from 'zod';
import { clip, closestName } from '../messages.js';
import { parseTime } from './time.js';

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
    // A member not taken goes first: a missing one beside it is most often the same one misnamed.
    message: describeIssue(schema, firstIssue(result.error.issues), input as Record<string, unknown>),
  };
}

/** The issue a refusal names: a member not taken first, else zod's first. */
function firstIssue(issues: z.core.$ZodIssue[]): z.core.$ZodIssue {
  return issues.find((issue) => issue.code === 'unrecognized_keys') ?? (issues[0] as z.core.$ZodIssue);
}

/** `"calls", at calls[0].arguments`: a place inside a parameter, named by the parameter and the path. */
function where(path: readonly PropertyKey[]): string {
  return `"${clip(String(path[0]), 40)}", at ${pathText(path)}`;
}

/**
 * "Unknown member … in "calls", at calls[1]: did you mean …? It takes: …": a key an object inside a
 * parameter of `schema` does not take, met as an unknown parameter is.
 */
export function unknownMember(path: readonly PropertyKey[], key: string, schema?: z.ZodObject): string {
  const at = `Unknown member "${clip(key, 40)}" in ${where(path)}`;
  const object = baseOf(schemaAt(schema, path));
  if (!(object instanceof z.ZodObject)) return `${at}; see the parameter's description for what it takes.`;
  const members = Object.keys(object.shape);
  const meant = closestName(key, members) ?? otherName(key, members);
  return `${at}${meant === undefined ? '; it' : `: did you mean "${meant}"? It`} takes: ${members.join(', ')}.`;
}

/** The schema of the value at `path` inside `schema`'s parameters, where lists and objects lead there. */
function schemaAt(schema: z.ZodObject | undefined, path: readonly PropertyKey[]): z.ZodType | undefined {
  let at: z.ZodType | undefined = schema;
  for (const step of path) {
    const base = baseOf(at);
    if (base instanceof z.ZodArray && typeof step === 'number') at = base.element as z.ZodType;
    else if (base instanceof z.ZodObject && Object.hasOwn(base.shape, step)) at = base.shape[step as string];
    else return undefined;
  }
  return at;
}

/**
 * Names other market-data services give what the tools take, and the tools' names for it, the
 * likeliest first: a name no spelling is close to ("vs_currency") is met with the one this tool
 * takes ("convert"), when it takes one of them.
 */
const OTHER_NAMES: Readonly<Record<string, readonly string[]>> = {
  currency: ['convert'],
  vs_currency: ['convert'],
  vs_currencies: ['convert'],
  quote_currency: ['convert'],
  fiat: ['convert'],
  start_date: ['time_start', 'date'],
  from: ['time_start', 'date', 'symbol'],
  from_currency: ['symbol'],
  base: ['symbol'],
  since: ['time_start'],
  start_time: ['time_start'],
  date_from: ['time_start'],
  end_date: ['time_end'],
  to: ['time_end', 'convert'],
  to_currency: ['convert'],
  target: ['convert'],
  until: ['time_end'],
  end_time: ['time_end'],
  date_to: ['time_end'],
  days: ['days', 'limit', 'time_start'],
  limit: ['count'],
  count: ['limit'],
  top: ['limit'],
  n: ['limit', 'count'],
  per_page: ['limit'],
  page_size: ['limit'],
  period: ['days', 'time_period', 'interval'],
  timeframe: ['time_period', 'interval', 'days'],
  resolution: ['interval'],
  granularity: ['interval'],
  sort_by: ['sort'],
  order_by: ['sort'],
  order: ['sort_dir'],
  sort_order: ['sort_dir'],
  coin: ['symbol'],
  coins: ['symbol'],
  ticker: ['symbol'],
  tickers: ['symbol'],
  // estimate_cost's planned calls, as other tools' lists of calls name their members.
  name: ['tool'],
  tool_name: ['tool'],
  args: ['arguments'],
  params: ['arguments'],
  parameters: ['arguments'],
  input: ['arguments'],
};

/** The name among `allowed` that OTHER_NAMES gives for `name`, if any. */
function otherName(name: string, allowed: readonly string[]): string | undefined {
  const other = Object.hasOwn(OTHER_NAMES, name.toLowerCase()) ? OTHER_NAMES[name.toLowerCase()] : undefined;
  return other?.find((taken) => allowed.includes(taken));
}

/** "Unknown parameter …: did you mean …? This tool takes: …" */
export function unknownParameter(schema: z.ZodObject, name: string): string {
  const allowed = Object.keys(schema.shape);
  const meant = closestName(name, allowed) ?? otherName(name, allowed);
  const guess = meant === undefined ? '' : `: did you mean "${meant}"?`;
  return `Unknown parameter "${clip(name, 40)}"${guess}${guess ? ' This' : '; this'} tool takes: ${allowed.length ? allowed.join(', ') : 'none'}.`;
}

function describeIssue(schema: z.ZodObject, issue: z.core.$ZodIssue, input: Record<string, unknown>): string {
  // Inside a parameter (estimate_cost's calls[0].arguments): named by its whole path.
  if (issue.path.length > 1 || (issue.code === 'unrecognized_keys' && issue.path.length > 0)) {
    if (issue.code === 'unrecognized_keys') return unknownMember(issue.path, issue.keys[0] ?? '', schema);
    const value = valueAt(input, issue.path);
    if (value === undefined && issue.code === 'invalid_type')
      return `Missing member "${clip(String(issue.path.at(-1)), 40)}" in ${where(issue.path)}: it is required (${expectedWords(issue.expected)}).`;
    return `Invalid value in ${where(issue.path)}: ${problemOf(issue, value, undefined)}.`;
  }
  if (issue.code === 'unrecognized_keys') return unknownParameter(schema, issue.keys[0] ?? '');
  const name = String(issue.path[0] ?? '');
  // A rule over several parameters none of which was sent (one of id, slug or symbol).
  if (name === '') return `Missing parameter: ${lowerFirst(issue.message)}.`;
  const field = schema.shape[name] as z.ZodType | undefined;
  const value = input?.[name];
  if (value === undefined && issue.code !== 'custom') {
    const takes = boundsOf(field) ?? describedAs(field);
    return `Missing parameter "${name}": it is required${takes ? ` (${takes})` : ''}.`;
  }
  const other = elsewhere(schema, name, value, issue);
  // A value close to one of its own, when no other parameter takes it as it is: that one.
  const meant =
    other === '' && issue.code === 'invalid_value' ? closestValue(value, issue.values) : undefined;
  if (meant !== undefined)
    return `Invalid value for "${name}": ${problemOf(issue, value, field)}; did you mean ${JSON.stringify(meant)}?`;
  return `Invalid value for "${name}": ${problemOf(issue, value, field)}${other}.`;
}

/**
 * What is wrong with a value, in words that name it and say what is allowed (the schema's bounds,
 * the rule's own message), never the validator's wording or a field's description.
 */
function problemOf(issue: z.core.$ZodIssue, value: unknown, field: z.ZodType | undefined): string {
  const bounds = boundsOf(field);
  const shown = clip(JSON.stringify(value) ?? String(value), 40);
  if (typeof value === 'string' && value.trim() === '' && issue.code !== 'custom') return 'is empty';
  // A value of no kind a union takes: what it takes (its rule's words, else the kinds), and what came.
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const takes = /^Invalid input\b/.test(issue.message)
      ? `must be ${issue.errors.map((e) => expectedWords(e[0]?.code === 'invalid_type' ? e[0].expected : 'another value')).join(' or ')}`
      : lowerFirst(issue.message);
    return `${takes}, not ${typeWords(value)} (${shown})`;
  }
  // A rule's own message says what it allows: only the validator's wording is put in ours.
  if (!/^(Too (big|small)|Invalid (input|option))\b/.test(issue.message)) return lowerFirst(issue.message);
  switch (issue.code) {
    case 'invalid_value':
      return `${shown} is not ${bounds ?? 'one of its values'}`;
    case 'invalid_type':
      // A number for text (an id a model took for one): the same value, quoted, is what is taken.
      if (typeof value === 'number' && issue.expected === 'string')
        return `${shown} is a number; it takes text: send "${shown}"`;
      if (typeof value === 'number') return `${shown} is not ${bounds ?? expectedWords(issue.expected)}`;
      if (typeof value === 'string' && issue.expected === 'number') {
        const sent = numberIn(value, field);
        if (sent !== undefined) return `${shown} is ${sent}`;
      }
      // A list for a comma list (an array a model built of the names): the same names, as the text taken.
      if (Array.isArray(value) && issue.expected === 'string' && value.length > 0 && value.every(isName))
        return `is a list; it takes text: send ${clip(JSON.stringify(value.join(',')), 80)}`;
      // Text for a list of names (a tool's name written alone): the same names, as the list taken.
      if (typeof value === 'string' && issue.expected === 'array' && takesNames(field))
        return `is text; it takes a list: send ${clip(JSON.stringify(value.split(',').map((n) => n.trim())), 80)}`;
      return `must be ${bounds ?? expectedWords(issue.expected)}, not ${typeWords(value)} (${shown})`;
    case 'too_big':
    case 'too_small':
      if (typeof value === 'number') return `${shown} is out of range: ${bounds ?? 'see the tool'}`;
      if (typeof value === 'string') {
        const most = issue.code === 'too_big' ? `at most ${issue.maximum}` : `at least ${issue.minimum}`;
        return `is too ${issue.code === 'too_big' ? 'long' : 'short'}: ${most} characters (got ${value.length})`;
      }
      if (Array.isArray(value)) {
        if (issue.code === 'too_big')
          return `is a list of ${value.length.toLocaleString('en-US')}: at most ${issue.maximum}`;
        const least = `at least ${issue.minimum}`;
        return value.length === 0
          ? `is an empty list: give ${least}`
          : `is a list of ${value.length.toLocaleString('en-US')}: ${least}`;
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

/**
 * The number text given for a number stands for, as what to send: the number it writes, or, for
 * Unix seconds (a chart's from and to), the seconds of the time it writes.
 */
function numberIn(text: string, field: z.ZodType | undefined): string | undefined {
  if (/^-?\d+(\.\d+)?$/.test(text.trim())) return `text; it takes a number: send ${Number(text)}`;
  const seconds = describedAs(field)?.includes('Unix seconds') ? parseTime(text) : undefined;
  return seconds === undefined ? undefined : `a date as text; it takes Unix seconds: send ${seconds}`;
}

/**
 * The one of a parameter's values a text given most likely meant: within a few edits, letter case
 * and `_` aside ("7D", "marketcap"), or the value it begins with ("descending" → "desc").
 */
function closestValue(value: unknown, values: readonly unknown[]): string | undefined {
  if (typeof value !== 'string') return undefined;
  const names = values.filter((v): v is string => typeof v === 'string');
  const lower = value.toLowerCase();
  // A short value one edit from another is another value ("1d" is not "1h"): only its case is let go.
  const most = value.length < 4 ? 0 : undefined;
  return closestName(value, names, most) ?? names.find((name) => name.length >= 3 && lower.startsWith(name));
}

/** Whether a parameter takes a list of text. */
function takesNames(field: z.ZodType | undefined): boolean {
  const base = baseOf(field);
  return base instanceof z.ZodArray && baseOf(base.element as z.ZodType) instanceof z.ZodString;
}

function isName(item: unknown): boolean {
  return typeof item === 'string' || (typeof item === 'number' && Number.isFinite(item));
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
    const base = baseOf(field as z.ZodType);
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
  const base = baseOf(field);
  if (base instanceof z.ZodEnum) return `one of ${base.options.join(', ')}`;
  if (!(base instanceof z.ZodNumber)) return undefined;
  const kind = base.isInt ? 'a whole number' : 'a number';
  const { minValue: min, maxValue: max } = base;
  // zod's whole numbers are bounded by the safe integers, which says nothing here.
  const finite = (v: number | null): v is number => v !== null && Math.abs(v) < Number.MAX_SAFE_INTEGER;
  if (finite(min) && finite(max)) return `${kind} from ${written(min)} to ${written(max)}`;
  if (finite(min)) return `${kind} of at least ${written(min)}`;
  return finite(max) ? `${kind} of at most ${written(max)}` : undefined;
}

/** A bound as people write it: 1,000,000 and 0.00000001, not 1000000 and 1e-8. */
function written(value: number): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: 20 });
}

/**
 * A field's own description, for a parameter whose schema says nothing of its values: "name from
 * list_dex_platforms, e.g. Solana" (a first word in capitals, "SQL", stays as it is).
 */
function describedAs(field: z.ZodType | undefined): string | undefined {
  const described = unwrap(field, (f) => f.description !== undefined)?.description?.trim();
  if (!described) return undefined;
  const text = described.replace(/\.$/, '');
  return /^[A-Z][a-z]/.test(text) ? lowerFirst(text) : text;
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

/** A parameter's schema without its optional and default wrappers: what a value given must be. */
export function baseOf(field: z.ZodType | undefined): z.ZodType | undefined {
  return unwrap(field, () => false);
}

/** Unwraps optional and default layers, which do not carry the inner description or type. */
function unwrap(field: z.ZodType | undefined, stop: (f: z.ZodType) => boolean): z.ZodType | undefined {
  let current = field;
  while (current && !stop(current) && (current.def.type === 'optional' || current.def.type === 'default')) {
    current = (current.def as unknown as { innerType: z.ZodType }).innerType;
  }
  return current;
}
