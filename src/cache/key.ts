/**
 * The cache key of a call: the endpoint, the account (a hash of the key, never the key) and the
 * parameters in canonical form (canonicalParams), after the schema filled in defaults. Two calls
 * that ask the service the same thing share one key.
 */
import { canonicalParams } from '../kit/canonical.js';

export function cacheKey(tool: string, account: string, params: Record<string, unknown>): string {
  return `${tool}|${account}|${canonicalParams(params)}`;
}
