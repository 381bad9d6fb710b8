/**
 * The key never leaves the process: whatever the service sends back (a message, or data that echoes
 * a request) is searched for it, in any letter case, and every occurrence is replaced.
 */

const REDACTED = '[redacted]';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The last key's patterns: a process calls with one key, or a few (HTTP callers' own), in turn. */
let last: { apiKey: string; found: RegExp; literal: RegExp; pattern: RegExp } | undefined;

/**
 * How JSON may spell one of the key's characters other than as itself: a `\uXXXX` escape of it in
 * either letter case, and `\/` for a slash. A body that spells none of them so can hold the key
 * only as its raw text shows it.
 */
function escapesOf(apiKey: string): string[] {
  const chars = new Set([...apiKey.toLowerCase(), ...apiKey.toUpperCase()]);
  const escapes = [...chars].map((c) => `\\\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return chars.has('/') ? [...escapes, '\\\\/'] : escapes;
}

function patternsOf(apiKey: string): { found: RegExp; literal: RegExp; pattern: RegExp } {
  if (last?.apiKey !== apiKey) {
    // A case-insensitive search of the raw text, as written, JSON-escaped, or with any of its
    // characters written as an escape, without copying it.
    const escaped = JSON.stringify(apiKey).slice(1, -1);
    const spellings = [escapeRegExp(apiKey), escapeRegExp(escaped), ...escapesOf(apiKey)];
    last = {
      apiKey,
      found: new RegExp(spellings.join('|'), 'i'),
      literal: new RegExp(escapeRegExp(apiKey), 'i'),
      pattern: new RegExp(escapeRegExp(apiKey), 'gi'),
    };
  }
  return last;
}

/**
 * `value` with every occurrence of the key, in any case, replaced in every string (object keys
 * included). `raw` is the text `value` was parsed from: when the key cannot appear in it (neither
 * as written, nor JSON-escaped, nor with a character of it written as an escape), the value is
 * returned untouched without walking it.
 */
export function redactKey<T>(value: T, raw: string, apiKey: string): T {
  if (apiKey === '' || value === undefined) return value;
  const { found, literal, pattern } = patternsOf(apiKey);
  // Every spelling but the key as written has a backslash: text without one needs only that search.
  if (!(raw.includes('\\') ? found : literal).test(raw)) return value;
  return cleanCopy(value, (text) => text.replace(pattern, REDACTED)) as T;
}

/**
 * `value` copied with `clean` applied to every string, object keys included, each key an own field
 * (`__proto__` too). Walked with a list of its own rather than by recursion: a body nested deeper
 * than the call stack goes is copied all the same.
 */
function cleanCopy(value: unknown, clean: (text: string) => string): unknown {
  const pending: [object, unknown[] | Record<string, unknown>][] = [];
  const copy = (node: unknown): unknown => {
    if (typeof node === 'string') return clean(node);
    if (node === null || typeof node !== 'object') return node;
    const to = Array.isArray(node) ? [] : {};
    pending.push([node, to]);
    return to;
  };
  const root = copy(value);
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [from, to] = next;
    if (Array.isArray(to)) for (const item of from as unknown[]) to.push(copy(item));
    else {
      for (const [key, item] of Object.entries(from)) {
        Object.defineProperty(to, clean(key), {
          value: copy(item),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    }
  }
  return root;
}
