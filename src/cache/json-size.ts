/**
 * Whether a value's JSON text would pass a size, found without writing it: a walk that counts at
 * most what JSON.stringify would write and stops as soon as the count passes the bound. Deciding
 * that a 14 MB answer is too large to cache then reads about `most` characters of it, where writing
 * it whole took over 100 ms on the server's thread for nothing.
 */

/**
 * Characters a number takes at least in JSON, by arithmetic rather than by writing it: its sign,
 * its whole digits less one (log10 is exact to within that), a point and a digit when it has a
 * fraction; an exponent form ("1e+21") is five at least.
 */
function numberLength(value: number): number {
  if (!Number.isFinite(value)) return 4;
  const sign = value < 0 ? 1 : 0;
  const size = Math.abs(value);
  if (size >= 1e21) return sign + 5;
  const digits = size < 10 ? 1 : Math.floor(Math.log10(size));
  return sign + digits + (Number.isInteger(value) ? 0 : 2);
}

/** Characters a primitive takes at least in JSON: a string's own and its quotes (escapes add more). */
function leafLength(value: unknown): number {
  if (typeof value === 'string') return value.length + 2;
  if (typeof value === 'number') return numberLength(value);
  if (typeof value === 'boolean') return value ? 4 : 5;
  return 4;
}

/**
 * True when `value`'s JSON is certainly longer than `most` characters. False means it may fit: the
 * count is a lower bound (escapes and some punctuation are not counted), so a caller that needs the
 * exact length writes the text then, knowing it is short.
 */
export function jsonLongerThan(value: unknown, most: number): boolean {
  let length = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'object' && next !== null) {
      if (Array.isArray(next)) {
        // The brackets, and a comma between two items.
        length += 2 + Math.max(0, next.length - 1);
        for (let i = next.length - 1; i >= 0; i--) pending.push(next[i]);
      } else {
        // The braces; each written key's quotes and colon, and a comma between two.
        let keys = 0;
        for (const key in next) {
          const field = (next as Record<string, unknown>)[key];
          if (field === undefined || typeof field === 'function') continue;
          length += key.length + 3;
          keys++;
          pending.push(field);
        }
        length += 2 + Math.max(0, keys - 1);
      }
    } else if (next !== undefined && typeof next !== 'function') {
      length += leafLength(next);
    }
    if (length > most) return true;
  }
  return false;
}
