/**
 * The service's records are looser than a tool's output schema: numbers arrive as strings, optional
 * fields as null, records carry fields no one asked for, and a few fields have another name or form.
 * `lenient(output, differences)` derives from the output schema the schema that reads an upstream
 * record and gives the output, so each field is declared once: only the differences are written.
 */
import { z } from 'zod';
import { looseNumber } from './define.js';
import { type Parse, type ReaderKit, readWith } from './fast-parse.js';

/**
 * How one output field differs upstream: read from another key (a dotted path such as
 * "plan.rate_limit_minute"), computed from the whole upstream record, read by a schema of its own
 * (which replaces the derived one, so it must give the output field's type), or both: read from
 * another key by a schema of its own, `[path, schema]`.
 */
export type Difference =
  | string
  | ((record: Record<string, unknown>) => unknown)
  | z.ZodType
  | readonly [string, z.ZodType];
type Move = string | ((record: Record<string, unknown>) => unknown);

const looseString = z.union([z.string(), z.number().transform(String)]);
const looseBoolean = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.enum(['true', 'false', '0', '1'])])
  .transform((v) => v === true || v === 1 || v === 'true' || v === '1');

/** The upstream reading of `output`, with `differences` for its top-level fields. */
export function lenient<O extends z.ZodType>(
  output: O,
  differences: Readonly<Record<string, Difference>> = {},
): z.ZodType<z.output<O>> {
  return derive(output, differences) as unknown as z.ZodType<z.output<O>>;
}

function derive(schema: z.ZodType, differences: Readonly<Record<string, Difference>> = {}): z.ZodType {
  const s = schema as unknown as {
    def: { type: string };
    element: z.ZodType;
    unwrap(): z.ZodType;
    keyType: z.ZodType<string>;
    valueType: z.ZodType;
    options: z.ZodType[];
  };
  switch (s.def.type) {
    case 'number':
      return looseNumber;
    case 'string':
      return looseString;
    case 'boolean':
      return looseBoolean;
    case 'array':
      return z.array(derive(s.element));
    case 'optional':
      return derive(s.unwrap()).optional();
    case 'nullable':
      return derive(s.unwrap()).nullable();
    case 'record':
      return z.record(s.keyType, derive(s.valueType));
    case 'union':
      return z.union(s.options.map((o) => derive(o)) as [z.ZodType, z.ZodType, ...z.ZodType[]]);
    case 'object':
      return objectOf(schema as z.ZodObject, differences);
    default:
      // Enums, literals, unknown: as they are.
      return schema;
  }
}

function objectOf(schema: z.ZodObject, differences: Readonly<Record<string, Difference>>): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  const nullable = new Set<string>();
  const moved: [string, Move][] = [];
  for (const [key, field] of Object.entries(schema.shape) as [string, z.ZodType][]) {
    const difference = differences[key];
    const [move, read] = Array.isArray(difference)
      ? difference
      : difference instanceof z.ZodType
        ? [undefined, difference]
        : [difference as Move | undefined, undefined];
    shape[key] = read ?? derive(field);
    if (move !== undefined) moved.push([key, move]);
    if (field.safeParse(null).success) nullable.add(key);
  }
  const keys = Object.keys(shape);
  const moves = new Map(moved);
  // Most objects move nothing: their fields are read where they are, without a lookup a field.
  const read =
    moves.size === 0
      ? (raw: Record<string, unknown>, key: string) => raw[key]
      : (raw: Record<string, unknown>, key: string) => {
          const from = moves.get(key);
          return from === undefined ? raw[key] : typeof from === 'string' ? valueAt(raw, from) : from(raw);
        };
  const schemaOf = z.preprocess((raw) => {
    if (!isRecord(raw)) return raw;
    // Only the output's fields (the object drops the rest): read from where they are upstream.
    // Null where the output has no null means "not given"; a key not given is left out, not undefined.
    const out: Record<string, unknown> = {};
    for (const key of keys) {
      const value = read(raw, key);
      if (value !== undefined && (value !== null || nullable.has(key))) out[key] = value;
    }
    return out;
  }, z.object(shape));
  readWith(schemaOf, (kit) => objectReader(kit, shape, nullable, read));
  return schemaOf;
}

/**
 * The reader of a lenient object in one pass, as zod gives it: the preprocess's fields read where
 * they are (a null the output has no null for is no field), then the object's parse of each, an
 * absent field left out or refused as zod's object does (fast-parse.ts has the same rule).
 */
function objectReader(
  kit: ReaderKit,
  shape: Record<string, z.ZodType>,
  nullable: ReadonlySet<string>,
  read: (raw: Record<string, unknown>, key: string) => unknown,
): Parse {
  const fields = Object.entries(shape).map(([key, field]) => {
    const { optin, optout } = (field as unknown as { _zod: { optin?: string; optout?: string } })._zod;
    return { key, parse: kit.compile(field), optin, optout, nullable: nullable.has(key) };
  });
  return (raw) => {
    if (!isRecord(raw)) return kit.giveWay();
    const out: Record<string, unknown> = {};
    for (const { key, parse, optin, optout, nullable: takesNull } of fields) {
      const value = read(raw, key);
      if (value !== undefined && (value !== null || takesNull)) {
        out[key] = parse(value);
        continue;
      }
      if (optout === 'optional' && optin === 'optional') continue;
      if (optin === undefined) return kit.giveWay();
      const filled = parse(undefined);
      if (filled !== undefined || (optin === 'defaulted' && optout !== 'optional')) out[key] = filled;
    }
    return out;
  };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function valueAt(record: Record<string, unknown>, path: string): unknown {
  let value: unknown = record;
  for (const key of path.split('.')) value = isRecord(value) ? value[key] : undefined;
  return value;
}
