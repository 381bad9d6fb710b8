/**
 * The service writes a `quote` either as an object keyed by currency (`{USD: {...}}`, the spec and
 * v1/v2 form; keyed by id with convert_id) or as an array of `{id, symbol, ...}` items (the real v3
 * form). Both become one list of `{currency, ...figures}`.
 */
import { z } from 'zod';
import { parseBody } from './define.js';

const figures = z.record(z.string(), z.unknown());
const keyedQuote = z.record(z.string(), figures);
const listedQuote = z.array(
  z.looseObject({ symbol: z.string().optional(), id: z.union([z.number(), z.string()]).optional() }),
);
const anyQuote = z.union([listedQuote, keyedQuote]);

export type QuoteEntry = { currency: string } & Record<string, unknown>;

export function quoteEntries(quote: unknown): QuoteEntry[] {
  const parsed = parseBody(anyQuote, quote);
  if (Array.isArray(parsed)) {
    return parsed.map(({ symbol, id, ...rest }) => ({ currency: symbol ?? String(id ?? '?'), ...rest }));
  }
  return Object.entries(parsed).map(([currency, values]) => ({ currency, ...values }));
}

/** A number field of a quote entry, or undefined when the service left it out. */
function numberField(entry: Record<string, unknown>, key: string): number | undefined {
  const value = entry[key];
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  return undefined;
}

/** Copy the named number fields that are present. */
export function pickNumbers<K extends string>(
  entry: Record<string, unknown>,
  keys: readonly K[],
): Partial<Record<K, number>> {
  const out: Partial<Record<K, number>> = {};
  for (const key of keys) {
    const value = numberField(entry, key);
    if (value !== undefined) out[key] = value;
  }
  return out;
}
