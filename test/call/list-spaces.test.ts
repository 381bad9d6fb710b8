/**
 * List parameters (ids, slugs, symbols, currencies, field names) take spaces around their items,
 * as a model often writes them: "BTC, ETH" asks what "BTC,ETH" asks, from the same cache entry.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { type InProcessSession, openInProcess } from '../helpers/in-process.js';

let session: InProcessSession;
beforeAll(async () => {
  session = await openInProcess({ SVC_TOOLSETS: 'all' });
});
afterAll(() => session?.close());

const CASES: [string, Record<string, unknown>, Record<string, unknown>][] = [
  ['get_cryptocurrency_quotes_latest', { symbol: 'BTC, ETH' }, { symbol: 'BTC,ETH' }],
  ['get_cryptocurrency_quotes_latest', { id: ' 1 , 1027 ' }, { id: '1,1027' }],
  ['get_cryptocurrency_info', { slug: 'bitcoin, ethereum' }, { slug: 'bitcoin,ethereum' }],
  ['get_cryptocurrency_quotes_latest', { id: '1', convert: 'USD, EUR' }, { id: '1', convert: 'USD,EUR' }],
  ['get_price_performance', { id: '1', time_period: '24h, 7d' }, { id: '1', time_period: '24h,7d' }],
];

it.each(CASES)('%s %j asks what %j asks, from the same cache entry', async (tool, spaced, plain) => {
  const first = await session.call(tool, spaced);
  expect(first.isError, textOf(first)).toBeFalsy();
  const second = await session.call(tool, plain);
  expect(second._meta).toMatchObject({ cached: true });
  expect(second.structuredContent).toEqual(first.structuredContent);
});

it('the descriptions say so', () => {
  const quotes = session.tools.find((t) => t.name === 'get_cryptocurrency_quotes_latest');
  const properties = quotes?.inputSchema.properties as Record<string, { description?: string }>;
  expect(properties.symbol?.description).toContain('BTC, ETH');
});
