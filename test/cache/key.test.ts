/** Canonical cache keys: parameter order and format do not matter; values, tools and accounts do. */
import { describe, expect, it } from 'vitest';
import { cacheKey } from '../../src/cache/key.js';

describe('cacheKey', () => {
  it('ignores the order of parameters and the presentation-only format', () => {
    expect(cacheKey('t', 'a', { limit: 10, start: 1 })).toBe(cacheKey('t', 'a', { start: 1, limit: 10 }));
    expect(cacheKey('t', 'a', { limit: 10, format: 'json' })).toBe(cacheKey('t', 'a', { limit: 10 }));
    expect(cacheKey('t', 'a', { limit: 10, convert: undefined })).toBe(cacheKey('t', 'a', { limit: 10 }));
  });

  it('differs by value, tool and account', () => {
    const base = cacheKey('t', 'a', { limit: 10 });
    expect(cacheKey('t', 'a', { limit: 11 })).not.toBe(base);
    expect(cacheKey('u', 'a', { limit: 10 })).not.toBe(base);
    expect(cacheKey('t', 'b', { limit: 10 })).not.toBe(base);
    // A list's order is part of the answer (convert EUR,USD lists EUR first).
    expect(cacheKey('t', 'a', { convert: 'EUR,USD' })).not.toBe(cacheKey('t', 'a', { convert: 'USD,EUR' }));
  });

  it('cannot be confused by values that look like separators', () => {
    expect(cacheKey('t', 'a', { q: 'x|y' })).not.toBe(cacheKey('t', 'a', { q: 'x', y: undefined }));
    expect(cacheKey('t', 'a', { a: '1,"b",2' })).not.toBe(cacheKey('t', 'a', { a: '1', b: 2 }));
  });
});
