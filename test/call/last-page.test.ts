/**
 * Every row shown once: a text page's next starts right after the last row the text showed; a page
 * as full as its limit may have more after it (the service was asked for no more), so it carries a
 * next too; a page with fewer rows than asked for is the service's last and carries none, in text
 * and in JSON: following it would buy an empty page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { type InProcessSession, openInProcess } from '../helpers/in-process.js';

/** The assets the sandbox lists (its market model). */
const SANDBOX_ASSETS = 231;

let session: InProcessSession;
beforeAll(async () => {
  session = await openInProcess({ SVC_TOOLSETS: 'all', SVC_CACHE: 'off' });
});
afterAll(() => session?.close());

/** The "Next page:" line's arguments, or undefined when the text has none. */
function textNext(text: string): Record<string, unknown> | undefined {
  const line = text.split('\n').find((l) => l.startsWith('Next page: '));
  return line === undefined ? undefined : JSON.parse(line.slice('Next page: '.length));
}

describe('offset pages', () => {
  it('a page shorter than asked for is the last: no next page in JSON, and the text ends there too', async () => {
    const json = await session.call('get_cryptocurrency_listings_latest', {
      start: 150,
      limit: 120,
      format: 'json',
    });
    const data = json.structuredContent as { items: unknown[]; next?: unknown; truncated?: string };
    expect(data.items).toHaveLength(SANDBOX_ASSETS - 149);
    expect(data.next).toBeUndefined();
    // Its 82 rows are one text page: every one shown, nothing after.
    const text = textOf(await session.call('get_cryptocurrency_listings_latest', { start: 150, limit: 120 }));
    const ranks = text.match(/^\d+(?= \| )/gm)?.map(Number);
    expect(ranks).toEqual(Array.from({ length: SANDBOX_ASSETS - 149 }, (_, i) => 150 + i));
    expect(textNext(text)).toBeUndefined();
  });

  it("a full page offers the next: every row of it in the text, then the service's after the 25th", async () => {
    const first = textOf(await session.call('get_cryptocurrency_listings_latest', { limit: 25 }));
    expect(first.match(/^\d+(?= \| )/gm)).toHaveLength(25);
    expect(first).toMatch(/^Rows 1–25; the service may have more: next asks it for them/m);
    expect(textNext(first)).toEqual({ start: 26, limit: 25 });
  });

  it('the last rows of the map, asked from a start near the end, are one page with no next', async () => {
    const text = textOf(await session.call('get_cryptocurrency_map', { start: 220, limit: 200 }));
    expect(text).toMatch(/^12 cryptocurrencies from start=220/);
    expect(text).not.toMatch(/Next page|^Rows/m);
  });

  it('the market pairs follow the total the service gives', async () => {
    const first = await session.call('get_market_pairs', { id: '1', limit: 30, format: 'json' });
    const total = (first.structuredContent as { num_market_pairs: number }).num_market_pairs;
    expect(total).toBeGreaterThan(30);
    expect((first.structuredContent as { next?: object }).next).toMatchObject({ start: 31 });
    const last = await session.call('get_market_pairs', {
      id: '1',
      start: total - 25,
      limit: 26,
      format: 'json',
    });
    expect((last.structuredContent as { next?: object }).next).toBeUndefined();
  });
});
