/**
 * The cache key of a call: the endpoint, the account (a hash of the key, never the key) and the
 * parameters in canonical form: after the schema filled in defaults, in sorted order, without the
 * presentation-only `format`. Two calls that ask the service the same thing share one key.
 */
export function cacheKey(tool: string, account: string, params: Record<string, unknown>): string {
  const canonical = Object.keys(params)
    .filter((name) => name !== 'format' && params[name] !== undefined)
    .sort()
    .map((name) => [name, params[name]]);
  return `${tool}|${account}|${JSON.stringify(canonical)}`;
}
