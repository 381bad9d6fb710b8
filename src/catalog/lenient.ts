/**
 * The service's records are looser than a tool's output schema: numbers arrive as strings, optional
 * fields as null, records carry fields no one asked for, and a few fields have another name or form.
 * `lenient(output, differences)` derives from the output schema the schema that reads an upstream
 * record and gives the output, so each field is declared once: only the differences are written.
 */
import { z } from 'zod';
import { looseNumber } from './define.js';

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
  return z.preprocess((raw) => {
    if (!isRecord(raw)) return raw;
    const out: Record<string, unknown> = { ...raw };
    for (const [key, from] of moved) out[key] = typeof from === 'string' ? valueAt(raw, from) : from(raw);
    // Null where the output has no null means "not given"; a key not given is left out, not undefined.
    for (const key of Object.keys(shape)) {
      if (out[key] === undefined || (out[key] === null && !nullable.has(key))) delete out[key];
    }
    return out;
  }, z.object(shape));
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function valueAt(record: Record<string, unknown>, path: string): unknown {
  let value: unknown = record;
  for (const key of path.split('.')) value = isRecord(value) ? value[key] : undefined;
  return value;
}
