/**
 * zod's parse of the schemas that read and check the service's answers, compiled once a schema into
 * plain functions: objects, arrays, unions, pipes and transforms (the lenient readers are made of
 * these), strings, numbers and booleans. An answer of 10,000 points in four currencies is read in a
 * fraction of zod's time and garbage. Every other kind of node, and any node with checks (a range,
 * a pattern), is parsed by zod itself; anything the compiled parse does not accept makes the caller
 * parse the whole with zod, whose result and issues are then the answer. On what it accepts, its
 * result is zod's: the same keys in the same order (test/kit/fast-parse.test.ts).
 */
import type { z } from 'zod';

/** Thrown where the compiled parse gives way to zod's: one object, no stack. */
const GIVE_WAY = Symbol('give way to zod');

export type Parse = (value: unknown) => unknown;

interface Zod {
  def: Record<string, unknown> & { type: string; checks?: unknown[]; coerce?: boolean };
  optin?: string;
  optout?: string;
}
type Schema = { _zod: Zod; safeParse(value: unknown): { success: boolean; data?: unknown } };

const compiled = new WeakMap<object, Parse>();
/** Readers written by hand for schemas whose maker knows a shorter way to zod's result. */
const readers = new WeakMap<object, (kit: ReaderKit) => Parse>();

/** What a hand-written reader is made with: the compiled parse of its parts, and giving way. */
export interface ReaderKit {
  compile(schema: z.ZodType): Parse;
  giveWay(): never;
}

/**
 * `schema` is read by the reader `make` gives, in place of its nodes compiled one by one. The
 * reader must give what zod gives, and give way where zod refuses.
 */
export function readWith(schema: z.ZodType, make: (kit: ReaderKit) => Parse): void {
  readers.set(schema, make);
}

const KIT: ReaderKit = { compile: (schema) => compile(schema as unknown as Schema), giveWay };

/** The schema's output for `value`, as zod would give it; undefined where zod must say (a failure, or a node it alone reads). */
export function fastParse<S extends z.ZodType>(
  schema: S,
  value: unknown,
): { value: z.output<S> } | undefined {
  try {
    return { value: compile(schema as unknown as Schema)(value) as z.output<S> };
  } catch (error) {
    if (error === GIVE_WAY) return undefined;
    throw error;
  }
}

function giveWay(): never {
  throw GIVE_WAY;
}

function compile(schema: Schema): Parse {
  let parse = compiled.get(schema);
  if (parse === undefined) {
    // A schema that holds itself (z.lazy) reaches its own entry while it is built.
    let built: Parse | undefined;
    compiled.set(schema, (value) => (built as Parse)(value));
    built = build(schema);
    compiled.set(schema, built);
    parse = built;
  }
  return parse;
}

/** zod's own parse of one node: its output, or giving way. */
function byZod(schema: Schema): Parse {
  return (value) => {
    const result = schema.safeParse(value);
    return result.success ? result.data : giveWay();
  };
}

function build(schema: Schema): Parse {
  const make = readers.get(schema);
  if (make) return make(KIT);
  const { def } = schema._zod;
  if ((def.checks?.length ?? 0) > 0 || def.coerce) return byZod(schema);
  const inner = () => compile(def.innerType as Schema);
  switch (def.type) {
    case 'string':
      return (v) => (typeof v === 'string' ? v : giveWay());
    case 'number':
      return (v) => (typeof v === 'number' && Number.isFinite(v) ? v : giveWay());
    case 'boolean':
      return (v) => (typeof v === 'boolean' ? v : giveWay());
    case 'unknown':
    case 'any':
      return (v) => v;
    case 'literal': {
      const values = new Set(def.values as unknown[]);
      return (v) => (values.has(v) ? v : giveWay());
    }
    case 'array': {
      const element = compile(def.element as Schema);
      return (v) => (Array.isArray(v) ? v.map((item) => element(item)) : giveWay());
    }
    case 'optional':
      // Only a default inside substitutes for absence: zod's to do.
      if ((def.innerType as Schema)._zod.optin === 'defaulted') return byZod(schema);
      return optional(inner());
    case 'nullable': {
      const parse = inner();
      return (v) => (v === null ? null : parse(v));
    }
    case 'union':
      return union(schema);
    case 'pipe': {
      const [first, then] = [compile(def.in as Schema), compile(def.out as Schema)];
      return (v) => then(first(v));
    }
    case 'transform':
      return transform(def.transform as (value: unknown, payload: object) => unknown);
    case 'object':
      return object(schema);
    case 'record':
      return record(schema);
    default:
      return byZod(schema);
  }
}

function optional(parse: Parse): Parse {
  return (v) => (v === undefined ? undefined : parse(v));
}

type Kind = 'array' | 'object' | 'string' | 'number' | 'boolean';

/** The kind of value a node can take at all, where one kind is all it takes. */
function kindOf(schema: Schema): Kind | undefined {
  const { def } = schema._zod;
  switch (def.type) {
    case 'array':
      return 'array';
    case 'object':
    case 'record':
      return 'object';
    case 'string':
    case 'number':
    case 'boolean':
      return def.coerce ? undefined : def.type;
    case 'pipe':
      return kindOf(def.in as Schema);
    default:
      return undefined;
  }
}

function kindOfValue(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  return value === null ? 'null' : typeof value;
}

/**
 * The first option that accepts the value, as zod's (inclusive, undiscriminated) union has it.
 * An option that cannot take the value's kind at all is passed over without being tried.
 */
function union(schema: Schema): Parse {
  const { def } = schema._zod;
  if (def.inclusive === false || def.discriminator !== undefined) return byZod(schema);
  const options = (def.options as Schema[]).map((option) => ({
    kind: kindOf(option),
    parse: compile(option),
  }));
  return (v) => {
    const kind = kindOfValue(v);
    for (const option of options) {
      if (option.kind !== undefined && option.kind !== kind) continue;
      try {
        return option.parse(v);
      } catch (error) {
        if (error !== GIVE_WAY) throw error;
      }
    }
    return giveWay();
  };
}

function transform(apply: (value: unknown, payload: object) => unknown): Parse {
  return (v) => {
    const payload = { value: v, issues: [] as unknown[] };
    const out = apply(v, payload);
    return out instanceof Promise || payload.issues.length > 0 ? giveWay() : out;
  };
}

interface Field {
  key: string;
  parse: Parse;
  optin?: string;
  optout?: string;
}

/**
 * An object as zod's parses it: the shape's keys in order, an absent key left out where the field is
 * optional in and out, kept as undefined where it was present; then, for a loose object, the other
 * keys as they are. Unknown keys of a strict object, and an absent required key, give way.
 */
function object(schema: Schema): Parse {
  const { def } = schema._zod;
  const shape = def.shape as Record<string, Schema>;
  const catchall = def.catchall as Schema | undefined;
  if (catchall !== undefined && catchall._zod.def.type !== 'unknown') return byZod(schema);
  const fields: Field[] = Object.keys(shape)
    .filter((key) => key !== '__proto__')
    .map((key) => {
      const { optin, optout } = (shape[key] as Schema)._zod;
      return { key, parse: compile(shape[key] as Schema), optin, optout };
    });
  const keys = new Set(Object.keys(shape));
  return (input) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return giveWay();
    const record = input as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const { key, parse, optin, optout } of fields) {
      const present = key in record;
      if (!present && optout === 'optional' && optin === 'optional') continue;
      if (!present && optin === undefined) return giveWay();
      const value = parse(record[key]);
      if (value !== undefined) out[key] = value;
      else if (present || (optin === 'defaulted' && optout !== 'optional')) out[key] = undefined;
    }
    if (catchall !== undefined) {
      for (const key in record) if (!keys.has(key) && key !== '__proto__') out[key] = record[key];
    }
    return out;
  };
}

/** A record of string keys, as zod's parses a plain object: each own key in order, its value parsed. */
function record(schema: Schema): Parse {
  const { def } = schema._zod;
  const keyType = (def.keyType as Schema)._zod;
  if (keyType.def.type !== 'string' || (keyType.def.checks?.length ?? 0) > 0 || keyType.def.coerce) {
    return byZod(schema);
  }
  const parse = compile(def.valueType as Schema);
  return (input) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return giveWay();
    const prototype = Object.getPrototypeOf(input);
    if (prototype !== Object.prototype && prototype !== null) return giveWay();
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(input)) {
      if (key !== '__proto__') out[key] = parse((input as Record<string, unknown>)[key]);
    }
    return out;
  };
}
