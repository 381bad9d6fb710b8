/**
 * A text that leaves rows out offers the next page only when there can be one: the page was full
 * (as many rows as asked for, or capped to one answer), or the service's total says there are
 * more. A shorter page is the service's last; following it would buy an empty page.
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

describe('offset pages', () => {
  it('a page shorter than asked for is the last: no next page', async () => {
    const result = await session.call('get_cryptocurrency_listings_latest', { start: 150, limit: 120 });
    const data = result.structuredContent as { items: unknown[]; next?: unknown };
    expect(data.items).toHaveLength(SANDBOX_ASSETS - 149);
    expect(data.next).toBeUndefined();
    expect(textOf(result)).toContain('more rows not shown; format=json has this page, the last.');
    expect(textOf(result)).not.toMatch(/next page|start=232/);
  });

  it('a full page offers the next', async () => {
    const text = textOf(await session.call('get_cryptocurrency_listings_latest', { limit: 25 }));
    expect(text).toContain('… 5 more rows not shown; format=json has this page; next page: start=26.');
  });

  it('the last page of the map, asked from a start near the end, says so', async () => {
    const text = textOf(await session.call('get_cryptocurrency_map', { start: 150, limit: 200 }));
    expect(text).not.toContain('next page');
    expect(text).toContain('the last');
  });

  it('the market pairs follow the total the service gives', async () => {
    const first = await session.call('get_market_pairs', { id: '1', limit: 30 });
    const total = (first.structuredContent as { num_market_pairs: number }).num_market_pairs;
    expect(total).toBeGreaterThan(30);
    expect(textOf(first)).toContain('next page: start=31');
    const last = await session.call('get_market_pairs', { id: '1', start: total - 25, limit: 26 });
    expect(textOf(last)).not.toContain('next page');
  });
});
