/**
 * The key never leaves the process: whatever the service sends back (a message, or data that echoes
 * a request) is searched for it, in any letter case, and every occurrence is replaced.
 */

const REDACTED = '[redacted]';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The last key's patterns: a process calls with one key, or a few (HTTP callers' own), in turn. */
let last: { apiKey: string; found: RegExp; pattern: RegExp } | undefined;

function patternsOf(apiKey: string): { found: RegExp; pattern: RegExp } {
  if (last?.apiKey !== apiKey) {
    // A case-insensitive search of the raw text, as written or JSON-escaped, without copying it.
    const escaped = JSON.stringify(apiKey).slice(1, -1);
    last = {
      apiKey,
      found: new RegExp(`${escapeRegExp(apiKey)}|${escapeRegExp(escaped)}`, 'i'),
      pattern: new RegExp(escapeRegExp(apiKey), 'gi'),
    };
  }
  return last;
}

/**
 * `value` with every occurrence of the key, in any case, replaced in every string (object keys
 * included). `raw` is the text `value` was parsed from: when the key does not appear in it (as
 * written, or JSON-escaped), the value is returned untouched without walking it.
 */
export function redactKey<T>(value: T, raw: string, apiKey: string): T {
  if (apiKey === '' || value === undefined) return value;
  const { found, pattern } = patternsOf(apiKey);
  if (!found.test(raw)) return value;
  const clean = (text: string) => text.replace(pattern, REDACTED);
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return clean(node);
    if (Array.isArray(node)) return node.map(walk);
    if (node && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([k, v]) => [clean(k), walk(v)]));
    }
    return node;
  };
  return walk(value) as T;
}
