/**
 * No answer is larger than hosts take as tool output: by default a page holds what fits in 100,000
 * characters of text and of structured data, with next for the following page; SVC_MAX_ANSWER_CHARS
 * raises (or lowers) it for a host that takes more. Assets named by id, which the service cannot
 * page, are paged the same way from the one answer it gave: nothing paid for is dropped.
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
    expect(data.next).toMatchObject({ interval: '1h', format: 'json', cursor: expect.any(String) });
    expect(data.truncated).toMatch(/^Rows 1–[\d,]+ of 5,000; next is the following page, free/);
  });

  it('rows quoted in 120 currencies: each page and its kept table within 100,000 characters, every row shown', async () => {
    const fiat = await session.call('get_fiat_map', { limit: 200, format: 'json' });
    const listing = await session.call('get_cryptocurrency_listings_latest', { limit: 200, format: 'json' });
    const symbols = (result: typeof fiat) =>
      (result.structuredContent as { items: { symbol: string }[] }).items;
    const convert = [...symbols(fiat), ...symbols(listing)]
      .map((item) => item.symbol)
      .slice(0, 120)
      .join(',');
    for (const format of ['json', 'text']) {
      const seen: number[] = [];
      let next: Record<string, unknown> | undefined = { limit: 20, convert, format };
      for (let page = 0; next !== undefined && seen.length < 20; page++) {
        expect(page).toBeLessThan(20);
        const result = await session.call('get_cryptocurrency_listings_latest', next);
        expect(result.isError, textOf(result).slice(0, 300)).toBeFalsy();
        const data = result.structuredContent as { items: { rank: number }[]; kept: { columns: object } };
        expect(size(data), `${format} page ${page + 1}`).toBeLessThanOrEqual(DEFAULT_CHARS);
        expect(textOf(result).length).toBeLessThanOrEqual(DEFAULT_CHARS);
        expect(Object.keys(data.kept.columns).length).toBeGreaterThan(700);
        seen.push(...data.items.map((item) => item.rank));
        next = (result.structuredContent as { next?: Record<string, unknown> }).next;
      }
      expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    }
  });

  it('assets named by id are paged from the one answer, every one on some page', async () => {
    const map = await session.call('get_cryptocurrency_map', { limit: 5000, format: 'json' });
    const ids = (map.structuredContent as { items: { id: number }[] }).items.map((a) => a.id);
    const seen: number[] = [];
    let next: Record<string, unknown> | undefined = { id: ids.join(','), format: 'json' };
    for (let page = 0; next !== undefined; page++) {
      expect(page).toBeLessThan(50);
      const result = await session.call('get_cryptocurrency_info', next);
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(result._meta?.credits).toBe(page === 0 ? 3 : 0);
      const data = result.structuredContent as { items: { id: number }[]; next?: Record<string, unknown> };
      expect(size(data)).toBeLessThanOrEqual(DEFAULT_CHARS);
      seen.push(...data.items.map((a) => a.id));
      next = data.next;
    }
    expect(seen.sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
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
      expect(data.truncated).toMatch(/^Rows 1–\d+ of 231/);
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
