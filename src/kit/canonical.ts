/**
 * A call's parameters in canonical form, as one text: in sorted order, without the presentation-only
 * `format` and unset values. Two calls that ask the service the same thing give the same text (the
 * cache's key, the confirmation's question).
 */
export function canonicalParams(params: Record<string, unknown>): string {
  const entries = Object.keys(params)
    .filter((name) => name !== 'format' && params[name] !== undefined)
    .sort()
    .map((name) => [name, params[name]]);
  return JSON.stringify(entries);
}
