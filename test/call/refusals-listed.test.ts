/**
 * Every documented rule of the listed endpoints' tools refuses before anything is sent: an
 * isError result whose message names the parameter, and the sandbox (external mode) sees no
 * request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { startMcp } from '../helpers/in-process.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import type { Session } from '../helpers/session.js';
import { BONK_CHART } from '../helpers/tool-names.js';

const currencies = (n: number) => Array.from({ length: n }, (_, i) => `C${i}`).join(',');
const CATEGORY = '7a3fa62a7b3fa7bd783fa304';

/** [tool, arguments, the parameter the message must name] */
const REFUSALS: [string, Record<string, unknown>, string][] = [
  // price conversion
  ['convert_price', { id: '1' }, 'amount'],
  ['convert_price', { amount: 0, id: '1' }, 'amount'],
  ['convert_price', { amount: 1e13, id: '1' }, 'amount'],
  ['convert_price', { amount: 1 }, 'id'],
  ['convert_price', { amount: 1, id: '1', symbol: 'BTC' }, 'symbol'],
  ['convert_price', { amount: 1, id: '1,2' }, 'id'],
  ['convert_price', { amount: 1, id: '1', time: 'yesterday' }, 'time'],
  ['convert_price', { amount: 1, id: '1', convert: 'EUR', convert_id: '2790' }, 'convert_id'],
  ['convert_price', { amount: 1, id: '1', convert: currencies(121) }, 'convert'],
  // map, info
  ['get_cryptocurrency_map', { listing_status: 'active,dead' }, 'listing_status'],
  ['get_cryptocurrency_map', { limit: 5001 }, 'limit'],
  ['get_cryptocurrency_map', { sort: 'name' }, 'sort'],
  ['get_cryptocurrency_map', { symbol: 'BTC,,ETH' }, 'symbol'],
  ['get_cryptocurrency_map', { aux: 'status' }, 'aux'],
  ['get_cryptocurrency_info', {}, 'id'],
  ['get_cryptocurrency_info', { id: '1', slug: 'bitcoin' }, 'slug'],
  ['get_cryptocurrency_info', { address: 'abc' }, 'address'],
  ['get_cryptocurrency_info', { id: '1', skip_invalid: 'no' }, 'skip_invalid'],
  // categories
  ['list_categories', { limit: 0 }, 'limit'],
  ['list_categories', { id: 'bitcoin' }, 'id'],
  ['get_category', {}, 'id'],
  ['get_category', { id: 'layer-1' }, 'id'],
  ['get_category', { id: CATEGORY, limit: 1001 }, 'limit'],
  ['get_category', { id: CATEGORY, convert: 'EUR', convert_id: '2790' }, 'convert_id'],
  // lists
  ['get_cryptocurrency_listings_historical', {}, 'date'],
  ['get_cryptocurrency_listings_historical', { date: 'last week' }, 'date'],
  ['get_cryptocurrency_listings_historical', { date: '2026-11-01', limit: 5001 }, 'limit'],
  ['get_cryptocurrency_listings_historical', { date: '2026-11-01', sort: 'rank' }, 'sort'],
  [
    'get_cryptocurrency_listings_historical',
    { date: '2026-11-01', cryptocurrency_type: 'nft' },
    'cryptocurrency_type',
  ],
  ['get_new_cryptocurrencies', { limit: 5001 }, 'limit'],
  ['get_new_cryptocurrencies', { sort_dir: 'up' }, 'sort_dir'],
  ['get_gainers_losers', { time_period: '2h' }, 'time_period'],
  ['get_gainers_losers', { limit: 1001 }, 'limit'],
  ['get_gainers_losers', { convert: 'EUR', convert_id: '2790' }, 'convert_id'],
  ['get_trending_cryptocurrencies', { time_period: '1h' }, 'time_period'],
  ['get_most_visited_cryptocurrencies', { time_period: '1h' }, 'time_period'],
  // market pairs
  ['get_market_pairs', {}, 'id'],
  ['get_market_pairs', { id: '1,1027' }, 'id'],
  ['get_market_pairs', { id: '1', slug: 'bitcoin' }, 'slug'],
  ['get_market_pairs', { id: '1', matched_id: '825', matched_symbol: 'USDT' }, 'matched_symbol'],
  ['get_market_pairs', { id: '1', category: 'futures' }, 'category'],
  ['get_market_pairs', { id: '1', fee_type: 'free' }, 'fee_type'],
  ['get_market_pairs', { id: '1', limit: 5001 }, 'limit'],
  // history
  ['get_ohlcv_historical', {}, 'id'],
  ['get_ohlcv_historical', { id: '1', count: 10001 }, 'count'],
  ['get_ohlcv_historical', { id: '1', interval: '5m' }, 'interval'],
  ['get_ohlcv_historical', { id: '1', time_period: 'weekly' }, 'time_period'],
  ['get_ohlcv_historical', { id: '1', convert: 'USD,EUR,GBP,JPY' }, 'convert'],
  ['get_ohlcv_historical', { id: '1', time_start: '2026-11-20', time_end: '2026-11-01' }, 'time_start'],
  ['get_ohlcv_latest', { slug: 'bitcoin' }, 'slug'],
  ['get_ohlcv_latest', {}, 'id'],
  ['get_price_performance', { id: '1', time_period: 'ytd' }, 'time_period'],
  ['get_cryptocurrency_quotes_historical', { id: '1', interval: '1m' }, 'interval'],
  ['get_cryptocurrency_quotes_historical', { id: '1', count: 0 }, 'count'],
  ['get_cryptocurrency_quotes_historical', { id: '1', convert: 'USD,EUR,GBP,JPY' }, 'convert'],
  ['get_cryptocurrency_quotes_historical', { slug: 'bitcoin' }, 'slug'],
  // legacy
  ['get_cryptocurrency_quotes_latest_v2', {}, 'id'],
  ['get_cryptocurrency_listings_latest_v1', { tag: 'gaming' }, 'tag'],
  ['get_cryptocurrency_listings_latest_v1', { price_min: 10, price_max: 1 }, 'price_min'],
  // content
  ['get_latest_content', { limit: 201 }, 'limit'],
  ['get_latest_content', { news_type: 'blog' }, 'news_type'],
  ['get_latest_content', { content_type: 'podcast' }, 'content_type'],
  ['get_latest_content', { language: 'xx' }, 'language'],
  ['get_latest_content', { category: 'GameFi;NFT' }, 'category'],
  ['get_latest_posts', { id: '1,1027' }, 'id'],
  ['get_latest_posts', { last_score: 'next' }, 'last_score'],
  ['get_top_posts', { symbol: 'BTC,ETH' }, 'symbol'],
  ['get_post_comments', {}, 'post_id'],
  ['get_post_comments', { post_id: 'abc' }, 'post_id'],
  // k-line
  ['get_kline_candles', { address: BONK_CHART.address }, 'platform'],
  ['get_kline_candles', { platform: 'solana' }, 'address'],
  ['get_kline_candles', { platform: 'solana', address: 'abc' }, 'address'],
  ['get_kline_candles', { ...BONK_CHART, interval: '2d' }, 'interval'],
  ['get_kline_candles', { ...BONK_CHART, from: 1_795_000_000, to: 1_790_000_000 }, 'from'],
  ['get_kline_candles', { ...BONK_CHART, limit: 1001 }, 'limit'],
  ['get_kline_points', { ...BONK_CHART, unit: 'eur' }, 'unit'],
  ['get_kline_points', { ...BONK_CHART, pm: 'x' }, 'pm'],
  ['get_kline_points', { ...BONK_CHART, from: -1 }, 'from'],
  // fiat, search
  ['get_fiat_map', { sort: 'symbol' }, 'sort'],
  ['get_fiat_map', { limit: 0 }, 'limit'],
  ['search_cryptocurrencies', {}, 'query'],
  ['search_cryptocurrencies', { query: '   ' }, 'query'],
  ['search_cryptocurrencies', { query: 'x'.repeat(101) }, 'query'],
  ['search_cryptocurrencies', { query: 'sol', limit: 51 }, 'limit'],
];

let sandbox: Sandbox;
let mcp: Session;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
  mcp = await startMcp(sandboxEnv(sandbox, 'sandbox-enterprise', { SVC_TOOLSETS: 'all' }));
});
afterAll(async () => {
  await mcp?.close();
  await sandbox?.close();
});

describe('refusals of the listed endpoints, before any upstream request', () => {
  it.each(REFUSALS)('%s %j → isError naming "%s"', async (tool, args, param) => {
    expect(mcp.tools.map((t) => t.name)).toContain(tool);
    const before = sandbox.stats.requests;
    const result = await mcp.call(tool, args);
    const text = textOf(result);
    expect(result.isError, text).toBe(true);
    expect(text).toContain(`"${param}"`);
    expect(sandbox.stats.requests).toBe(before);
  });

  it('a refusal spells out what is allowed: the values of an enum, the range of a number', async () => {
    const period = textOf(await mcp.call('get_trending_cryptocurrencies', { time_period: '1h' }));
    expect(period).toMatch(/"1h" is not one of 24h, 7d, 30d/);
    const limit = textOf(await mcp.call('get_latest_content', { limit: 201 }));
    expect(limit).toMatch(/201 is out of range: a whole number from 1 to 200/);
  });
});
