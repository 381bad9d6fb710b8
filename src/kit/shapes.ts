/**
 * Shapes the service's `data` takes across endpoints, read one way: a list, one record, or an object
 * keyed by id (the v2 "by asset" form; slugs are keyed by id too) or by symbol with an array per
 * symbol (symbols are not unique). Bare or inside `{data, status}`: callers pass `dataOf(body)`.
 */
import { z } from 'zod';
import { looseNumber, parseBody } from './define.js';
import { isRecord } from './lenient.js';

/** Every record in `data`, whichever of the shapes above it has. */
export function recordsOf<S extends z.ZodType>(record: S, data: unknown): z.output<S>[] {
  if (Array.isArray(data)) return parseBody(z.array(record), data);
  if (isKeyedMap(data)) {
    const keyed = parseBody(z.record(z.string(), z.union([z.array(record), record])), data);
    return Object.values(keyed).flat() as z.output<S>[];
  }
  return [parseBody(record, data)];
}

/** An object whose every value is an object or a list is a map of records, not one record (which has an id). */
function isKeyedMap(data: unknown): boolean {
  return isRecord(data) && Object.values(data).every((v) => typeof v === 'object' && v !== null);
}

/** The market-cap rank, written `<brand>_rank` upstream (the spec writes svc_rank): the first such number. */
export function rankOf(record: Record<string, unknown>): number | undefined {
  for (const [key, value] of Object.entries(record)) {
    if (!key.endsWith('_rank')) continue;
    const rank = looseNumber.safeParse(value);
    if (rank.success) return rank.data;
  }
  return undefined;
}
