/**
 * No answer is larger than hosts take as tool output: by default a page holds what fits in 100,000
 * characters of text and of structured data, with the next page's arguments; SVC_MAX_ANSWER_CHARS
 * raises (or lowers) it for a host that takes more. A list that cannot be paged is cut to the same
 * bound, saying what was left out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { type InProcessSession, openInProcess } from '../helpers/in-process.js';
import { heavyCallsEnv, type Sandbox, startTestSandbox } from '../helpers/sandbox.js';

const DEFAULT_CHARS = 100_000;
const HEAVY = { count: 5000, interval: '1h', format: 'json' };
const size = (value: unknown) => JSON.stringify(value).length;

let sandbox: Sandbox;
const env = (extra: Record<string, string> = {}) => heavyCallsEnv(sandbox, extra);
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
});
afterAll(() => sandbox?.close());

describe('by default', () => {
  let session: InProcessSession;
  beforeAll(async () => {
    session = await openInProcess(env());
  });
  afterAll(() => session?.close());

  it('a long history in JSON is a page of at most 100,000 characters, with the next', async () => {
    const result = await session.call('get_global_metrics_historical', HEAVY);
    const data = result.structuredContent as { quotes: unknown[]; next?: object; truncated?: string };
    expect(textOf(result).length).toBeLessThanOrEqual(DEFAULT_CHARS);
    expect(size(data)).toBeLessThanOrEqual(DEFAULT_CHARS);
    expect(data.quotes.length).toBeGreaterThan(50);
    expect(data.next).toMatchObject({ interval: '1h', format: 'json' });
    expect(data.truncated).toMatch(/to stay within 100,000 characters \(SVC_MAX_ANSWER_CHARS;/);
  });

  it('a list the service cannot page is cut to the same bound, saying so', async () => {
    const map = await session.call('get_cryptocurrency_map', { limit: 5000 });
    const ids = (map.structuredContent as { items: { id: number }[] }).items.map((a) => a.id).join(',');
    const result = await session.call('get_cryptocurrency_info', { id: ids, format: 'json' });
    expect(result.isError, textOf(result)).toBeFalsy();
    const data = result.structuredContent as { items: unknown[]; truncated?: string };
    expect(size(data)).toBeLessThanOrEqual(DEFAULT_CHARS);
    expect(data.truncated).toMatch(/^Cut to stay within 100,000 characters: kept \d+ of 231 of items/);
  });
});

describe('SVC_MAX_ANSWER_CHARS', () => {
  it('raises the page for a host that takes more', async () => {
    const session = await openInProcess(env({ SVC_MAX_ANSWER_CHARS: '400000' }));
    try {
      const result = await session.call('get_global_metrics_historical', HEAVY);
      const data = result.structuredContent as { quotes: unknown[]; truncated?: string };
      expect(size(data)).toBeGreaterThan(DEFAULT_CHARS);
      expect(size(data)).toBeLessThanOrEqual(400_000);
      expect(data.truncated).toMatch(/400,000 characters/);
    } finally {
      await session.close();
    }
  });
});

describe('what the server reads for itself', () => {
  it("search reads the whole map, whatever the answer's bound; the map tool's answer keeps to it", async () => {
    const session = await openInProcess(env({ SVC_MAX_ANSWER_CHARS: '10000' }));
    try {
      const map = await session.call('get_cryptocurrency_map', { limit: 5000, format: 'json' });
      const data = map.structuredContent as { items: { id: number }[]; truncated?: string };
      expect(size(data)).toBeLessThanOrEqual(10_000);
      expect(data.truncated).toMatch(/^Cut to stay within 10,000 characters/);
      // BONK has one of the highest ids: past what a 10,000-character map answer holds.
      expect(data.items.map((a) => a.id)).not.toContain(23095);
      const found = await session.call('search_cryptocurrencies', { query: 'bonk', format: 'json' });
      expect((found.structuredContent as { matches: { id: number }[] }).matches[0]).toMatchObject({
        id: 23095,
      });
      expect(found._meta?.credits).toBe(0);
    } finally {
      await session.close();
    }
  });
});
