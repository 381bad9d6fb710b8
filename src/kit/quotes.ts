/**
 * The service writes a `quote` either as an object keyed by currency (`{USD: {...}}`, the spec and
 * v1/v2 form; keyed by id with convert_id) or as an array of `{id, symbol, ...}` items (the real v3
 * form). Both become one list of `{currency, ...figures}`.
 */
import { z } from 'zod';
import { readWith } from './fast-parse.js';
import { lenient } from './lenient.js';

const figures = z.record(z.string(), z.unknown());
const listedQuote = z
  .array(z.looseObject({ symbol: z.string().optional(), id: z.union([z.number(), z.string()]).optional() }))
  .transform((items): unknown[] =>
    items.map(({ symbol, id, ...rest }) => ({ currency: symbol ?? String(id ?? '?'), ...rest })),
  );
const keyedQuote = z
  .record(z.string(), figures)
  .transform((keyed): unknown[] =>
    Object.entries(keyed).map(([currency, values]) => ({ currency, ...values })),
  );

/** A plain object, as zod's record takes one: not an array, of no class of its own. */
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** The currency of the keyed entry being read: set just before its figures are read, synchronously. */
let keyedCurrency = '';

/** A quote, keyed or listed, read as a list of `entry` (an output object with `currency`). */
export function quoteOf<E extends z.ZodObject>(entry: E) {
  const entries = z.array(lenient(entry));
  const schema = z.union([listedQuote, keyedQuote]).pipe(entries);
  // zod's result for the keyed form in one pass: each currency's figures are read straight into the
  // entry they become, with no copy between (a quote of four currencies in a 10,000-point history is
  // 40,000 entries). A `currency` among the figures wins, as in zod's spread.
  const figuresOf = lenient(entry, {
    currency: (values) => ('currency' in values ? values.currency : keyedCurrency),
  });
  readWith(schema, ({ compile, giveWay }) => {
    const [listed, all, one] = [compile(listedQuote), compile(entries), compile(figuresOf)];
    return (value) => {
      if (Array.isArray(value)) return all(listed(value));
      if (!isPlainRecord(value)) return giveWay();
      const read: unknown[] = [];
      for (const currency of Object.keys(value)) {
        if (currency === '__proto__') continue;
        const values = value[currency];
        if (!isPlainRecord(values)) return giveWay();
        keyedCurrency = currency;
        read.push(one(values));
      }
      return read;
    };
  });
  return schema;
}

/** The output entry of a quote: its currency (a symbol, or an id when asked by convert_id) and the named figures, each optional. */
export function quoteEntry<const K extends string>(names: readonly K[]) {
  const shape = Object.fromEntries(names.map((n) => [n, z.number().optional()])) as Record<
    K,
    z.ZodOptional<z.ZodNumber>
  >;
  return z.object({ currency: z.string(), ...shape });
}
