/**
 * The spec's parameter rules as zod pieces, shared by the MCP tools (which check arguments before
 * anything is sent) and the sandbox (which answers 400 for the same input). One definition, two users.
 */
import { z } from 'zod';

const CURRENCY_SYMBOL = /^[A-Za-z0-9$@-]+$/;
const ID_LIST = /^\d+(?:,\d+)*$/;
const SLUG_LIST = /^[0-9a-z-]+(?:,[0-9a-z-]+)*$/;
const SYMBOL_LIST = /^[0-9A-Za-z$@-]+(?:,[0-9A-Za-z$@-]+)*$/;
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** Every tool's `format`: the compact text summary or the structured data as JSON. */
export const formatParam = z.enum(['text', 'json']).default('text').describe('json: data as JSON.');

/** Unix seconds or ISO 8601 as the spec allows; `undefined` when the value is neither. */
export function parseTime(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined;
  const text = value.trim();
  if (/^\d{1,12}$/.test(text)) return Number(text);
  if (!ISO_8601.test(text)) return undefined;
  const ms = Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(text) || text.length === 10 ? text : `${text}Z`);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

export function splitList(value: string): string[] {
  return value.split(',');
}

/** `convert`: comma-separated currency symbols, each of letters, digits, $, @ and hyphen. */
export function convertParam(max: number, note = '') {
  return z
    .string()
    .refine((v) => splitList(v).every((s) => CURRENCY_SYMBOL.test(s)), {
      message: 'each currency symbol may hold only letters, digits, $, @ and hyphen, separated by commas',
    })
    .refine((v) => splitList(v).length <= max, {
      message: `at most ${max} currencies${note}`,
    })
    .optional()
    .describe(
      `Currencies to quote in, comma-separated symbols (fiat or crypto), e.g. "USD,EUR,BTC"; up to ${max}${note}; default USD. Not together with convert_id. Each currency beyond the first costs 1 more credit.`,
    );
}

/** `convert_id`: the same as convert, by numeric id (USD is 2781, EUR 2790, BTC 1). */
export function convertIdParam(max: number) {
  return z
    .string()
    .regex(ID_LIST, { message: 'must be numeric ids separated by commas, e.g. "2781,2790"' })
    .refine((v) => splitList(v).length <= max, { message: `at most ${max} ids` })
    .optional()
    .describe(
      `Currencies to quote in by numeric id, comma-separated (USD 2781, EUR 2790, BTC 1); up to ${max}. Not together with convert.`,
    );
}

/** Time bound: Unix seconds or ISO 8601. */
export function timeParam(what: string) {
  return z
    .union([z.string(), z.number()])
    .refine((v) => parseTime(v) !== undefined, {
      message:
        'must be Unix time in seconds or an ISO 8601 date/time such as 2026-11-01 or 2026-11-01T12:00:00Z',
    })
    .optional()
    .describe(`${what}: Unix seconds or ISO 8601 (e.g. 2026-11-01T00:00:00Z).`);
}

export function intParam(min: number, max: number | undefined, description: string) {
  const base = z.number().int().min(min);
  return (max === undefined ? base : base.max(max)).describe(description);
}

/** One of `values`; the schema's enum lists them, so the description need not. */
export function enumParam<const T extends readonly [string, ...string[]]>(values: T, description: string) {
  return z.enum(values).describe(description);
}

/** A comma list whose every item must be one of `allowed`. */
export function namesListParam(allowed: readonly string[], description: string) {
  return z
    .string()
    .refine((v) => splitList(v).every((name) => allowed.includes(name)), {
      message: `each name must be one of ${allowed.join(', ')}`,
    })
    .optional()
    .describe(`${description} Comma list of: ${allowed.join(', ')}.`);
}

export const idListParam = z
  .string()
  .regex(ID_LIST, { message: 'must be numeric ids separated by commas, e.g. "1,1027"' });
export const slugListParam = z
  .string()
  .regex(SLUG_LIST, { message: 'must be lowercase slugs separated by commas, e.g. "bitcoin,ethereum"' });
export const symbolListParam = z
  .string()
  .regex(SYMBOL_LIST, { message: 'must be symbols separated by commas, e.g. "BTC,ETH"' });

type Issue = { path: string; message: string };
type Refinement = (value: Record<string, unknown>, add: (issue: Issue) => void) => void;

/** Rules between parameters: convert and convert_id are exclusive. */
export const convertExclusive: Refinement = (value, add) => {
  if (value.convert !== undefined && value.convert_id !== undefined) {
    add({ path: 'convert_id', message: 'must not be combined with convert: send one of them' });
  }
};

/** Rules between parameters: time_start must not be after time_end. */
export const timeOrder: Refinement = (value, add) => {
  if (value.time_start === undefined || value.time_end === undefined) return;
  const start = parseTime(value.time_start as string | number);
  const end = parseTime(value.time_end as string | number);
  if (start !== undefined && end !== undefined && start > end) {
    add({ path: 'time_start', message: 'must not be after time_end' });
  }
};

/** A strict object (unknown parameters are refused) with cross-parameter rules attached. */
export function paramsObject<T extends z.ZodRawShape>(shape: T, ...rules: Refinement[]) {
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
 * that names the parameter and says what is allowed (the field's own description).
 */
export function validateParams<S extends z.ZodObject>(schema: S, args: unknown): ParamsResult<z.output<S>> {
  const result = schema.safeParse(args ?? {});
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, message: describeIssue(schema, result.error.issues[0]) };
}

function describeIssue(schema: z.ZodObject, issue: z.core.$ZodIssue): string {
  const allowed = Object.keys(schema.shape);
  if (issue.code === 'unrecognized_keys') {
    const list = allowed.length ? allowed.join(', ') : 'none';
    return `Unknown parameter "${issue.keys[0]}"; this endpoint takes: ${list}.`;
  }
  const name = String(issue.path[0] ?? '');
  const field = schema.shape[name] as z.ZodType | undefined;
  const rule = [boundsOf(field), fieldDescription(field)].filter(Boolean).join('. ');
  const help = rule ? ` Allowed: ${rule}` : '';
  return `Invalid value for "${name}": ${lowerFirst(issue.message)}.${help}`;
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
  const finite = (v: number | null): v is number => v !== null && Math.abs(v) < Number.MAX_SAFE_INTEGER;
  if (finite(min) && finite(max)) return `${kind} from ${min} to ${max}`;
  if (finite(min)) return `${kind} of at least ${min}`;
  return finite(max) ? `${kind} of at most ${max}` : undefined;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/**
 * Query strings carry text only: turn the values of number and boolean fields into their types so
 * that the same schema checks a query string and a tool call's JSON arguments.
 */
export function coerceQuery(schema: z.ZodObject, query: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, raw] of query) {
    const kind = baseType(schema.shape[key] as z.ZodType | undefined);
    if (kind === 'number' && raw.trim() !== '' && !Number.isNaN(Number(raw))) out[key] = Number(raw);
    else if (kind === 'boolean' && (raw === 'true' || raw === 'false')) out[key] = raw === 'true';
    else out[key] = raw;
  }
  return out;
}

/** Unwraps optional and default layers, which do not carry the inner description or type. */
function unwrap(field: z.ZodType | undefined, stop: (f: z.ZodType) => boolean): z.ZodType | undefined {
  let current = field;
  while (current && !stop(current) && (current.def.type === 'optional' || current.def.type === 'default')) {
    current = (current.def as unknown as { innerType: z.ZodType }).innerType;
  }
  return current;
}

function baseType(field: z.ZodType | undefined): string | undefined {
  return unwrap(field, () => false)?.def.type;
}

function fieldDescription(field: z.ZodType | undefined): string | undefined {
  return unwrap(field, (f) => f.description !== undefined)?.description;
}
