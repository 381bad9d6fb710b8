/**
 * Every rule of the tools' input schemas refuses before anything is sent: an isError result whose
 * message names the parameter, and the sandbox (external mode) sees no request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { startMcp } from '../helpers/in-process.js';
import { heavyCallsEnv, type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import type { Session } from '../helpers/session.js';

const currencies = (n: number) => Array.from({ length: n }, (_, i) => `C${i}`).join(',');
const ids = (n: number) => Array.from({ length: n }, (_, i) => String(2781 + i)).join(',');
const both = { time_start: '2026-11-01T00:00:00Z', time_end: '2026-11-20T00:00:00Z' };

/** [what, tool, arguments, the parameter the message must name] */
const REFUSALS: [string, string, Record<string, unknown>, string][] = [
  // unknown parameters
  ['unknown parameter', 'get_fear_and_greed_latest', { limit: 5 }, 'limit'],
  ['unknown parameter (typo)', 'get_cryptocurrency_listings_latest', { limt: 5 }, 'limt'],
  ['unknown parameter on quotes', 'get_cryptocurrency_quotes_latest', { id: '1', ids: '2' }, 'ids'],
  // convert
  [
    'convert with convert_id',
    'get_global_metrics_latest',
    { convert: 'USD', convert_id: '2781' },
    'convert_id',
  ],
  [
    'convert with convert_id (listings)',
    'get_cryptocurrency_listings_latest',
    { convert: 'EUR', convert_id: '2790' },
    'convert_id',
  ],
  [
    'convert with convert_id (quotes)',
    'get_cryptocurrency_quotes_latest',
    { id: '1', convert: 'EUR', convert_id: '2790' },
    'convert_id',
  ],
  [
    'convert with convert_id (historical)',
    'get_global_metrics_historical',
    { convert: 'EUR', convert_id: '2790' },
    'convert_id',
  ],
  ['121 currencies on latest', 'get_global_metrics_latest', { convert: currencies(121) }, 'convert'],
  [
    '121 currencies on listings',
    'get_cryptocurrency_listings_latest',
    { convert: currencies(121) },
    'convert',
  ],
  [
    '121 currencies on quotes',
    'get_cryptocurrency_quotes_latest',
    { id: '1', convert: currencies(121) },
    'convert',
  ],
  ['121 convert ids on latest', 'get_global_metrics_latest', { convert_id: ids(121) }, 'convert_id'],
  [
    '5 currencies on historical',
    'get_global_metrics_historical',
    { convert: 'USD,EUR,GBP,JPY,BTC' },
    'convert',
  ],
  ['5 convert ids on historical', 'get_global_metrics_historical', { convert_id: ids(5) }, 'convert_id'],
  ['a space in convert', 'get_global_metrics_latest', { convert: 'US D' }, 'convert'],
  ['a semicolon in convert', 'get_global_metrics_latest', { convert: 'USD;EUR' }, 'convert'],
  ['an empty item in convert', 'get_cryptocurrency_listings_latest', { convert: 'USD,,EUR' }, 'convert'],
  ['letters in convert_id', 'get_global_metrics_latest', { convert_id: '2781,EUR' }, 'convert_id'],
  // count, interval, aux, times on global metrics historical
  ['count 0', 'get_global_metrics_historical', { count: 0 }, 'count'],
  ['count 10001', 'get_global_metrics_historical', { count: 10001 }, 'count'],
  ['count 2.5', 'get_global_metrics_historical', { count: 2.5 }, 'count'],
  ['count as a string', 'get_global_metrics_historical', { count: '10' }, 'count'],
  ['interval not allowed', 'get_global_metrics_historical', { interval: '2w' }, 'interval'],
  ['interval 1m not allowed', 'get_global_metrics_historical', { interval: '1m' }, 'interval'],
  [
    'aux (not offered: the answer has fixed fields)',
    'get_global_metrics_historical',
    { aux: 'btc_dominance' },
    'aux',
  ],
  [
    'time_start after time_end',
    'get_global_metrics_historical',
    { time_start: '2026-11-20', time_end: '2026-11-01' },
    'time_start',
  ],
  [
    'time_start after time_end (Unix)',
    'get_global_metrics_historical',
    { time_start: 1_790_000_000, time_end: 1_780_000_000 },
    'time_start',
  ],
  ['bad time_start format', 'get_global_metrics_historical', { time_start: 'last tuesday' }, 'time_start'],
  ['bad time_end format', 'get_global_metrics_historical', { time_end: '2026/11/01' }, 'time_end'],
  ['bad time_end date', 'get_global_metrics_historical', { time_end: '2026-13-45' }, 'time_end'],
  ['negative Unix time', 'get_global_metrics_historical', { time_end: -5 }, 'time_end'],
  // fear and greed, community, altcoin season
  ['fear and greed start 0', 'get_fear_and_greed_historical', { start: 0 }, 'start'],
  ['fear and greed limit 501', 'get_fear_and_greed_historical', { limit: 501 }, 'limit'],
  ['fear and greed limit 0', 'get_fear_and_greed_historical', { limit: 0 }, 'limit'],
  ['community tokens limit 6', 'get_trending_community_tokens', { limit: 6 }, 'limit'],
  ['community topics limit 6', 'get_trending_community_topics', { limit: 6 }, 'limit'],
  ['community topics limit 0', 'get_trending_community_topics', { limit: 0 }, 'limit'],
  ['timeframe 1y', 'get_altcoin_season_index_historical', { timeframe: '1y' }, 'timeframe'],
  // indices
  ['index interval 1h', 'get_svc100_index_historical', { interval: '1h' }, 'interval'],
  ['index interval 1h (svc20)', 'get_svc20_index_historical', { interval: '1h' }, 'interval'],
  ['index count 11 with both bounds', 'get_svc100_index_historical', { ...both, count: 11 }, 'count'],
  ['index count 11 with both bounds (svc20)', 'get_svc20_index_historical', { ...both, count: 11 }, 'count'],
  ['index count 101', 'get_svc20_index_historical', { count: 101 }, 'count'],
  [
    'index time_start after time_end',
    'get_svc20_index_historical',
    { time_start: both.time_end, time_end: both.time_start },
    'time_start',
  ],
  // DEX
  ['platformName missing', 'get_dex_platform', {}, 'platformName'],
  ['platformName empty', 'get_dex_platform', { platformName: '' }, 'platformName'],
  // listings
  ['listings limit 5001', 'get_cryptocurrency_listings_latest', { limit: 5001 }, 'limit'],
  ['listings start 0', 'get_cryptocurrency_listings_latest', { start: 0 }, 'start'],
  [
    'listings price_min > price_max',
    'get_cryptocurrency_listings_latest',
    { price_min: 10, price_max: 5 },
    'price_min',
  ],
  [
    'listings market_cap_min > market_cap_max',
    'get_cryptocurrency_listings_latest',
    { market_cap_min: 2e9, market_cap_max: 1e9 },
    'market_cap_min',
  ],
  [
    'listings negative volume_24h_min',
    'get_cryptocurrency_listings_latest',
    { volume_24h_min: -1 },
    'volume_24h_min',
  ],
  [
    'listings percent_change_24h_min below -100',
    'get_cryptocurrency_listings_latest',
    { percent_change_24h_min: -101 },
    'percent_change_24h_min',
  ],
  ['listings sort not allowed', 'get_cryptocurrency_listings_latest', { sort: 'rank' }, 'sort'],
  ['listings sort_dir not allowed', 'get_cryptocurrency_listings_latest', { sort_dir: 'up' }, 'sort_dir'],
  [
    'listings cryptocurrency_type not allowed',
    'get_cryptocurrency_listings_latest',
    { cryptocurrency_type: 'nfts' },
    'cryptocurrency_type',
  ],
  ['listings bad tag', 'get_cryptocurrency_listings_latest', { tag: 'DeFi!' }, 'tag'],
  // quotes
  ['quotes with id and symbol', 'get_cryptocurrency_quotes_latest', { id: '1', symbol: 'BTC' }, 'symbol'],
  [
    'quotes with slug and symbol',
    'get_cryptocurrency_quotes_latest',
    { slug: 'bitcoin', symbol: 'BTC' },
    'symbol',
  ],
  ['quotes with id and slug', 'get_cryptocurrency_quotes_latest', { id: '1', slug: 'bitcoin' }, 'slug'],
  ['quotes bad id list', 'get_cryptocurrency_quotes_latest', { id: '1,,1027' }, 'id'],
  ['quotes non-numeric id', 'get_cryptocurrency_quotes_latest', { id: 'bitcoin' }, 'id'],
  ['quotes id as a number', 'get_cryptocurrency_quotes_latest', { id: 1 }, 'id'],
  ['quotes slug with a sign no slug has', 'get_cryptocurrency_quotes_latest', { slug: 'bitcoin!' }, 'slug'],
  [
    'quotes symbol with a space inside it',
    'get_cryptocurrency_quotes_latest',
    { symbol: 'BT C,ETH' },
    'symbol',
  ],
  [
    'quotes skip_invalid as a string',
    'get_cryptocurrency_quotes_latest',
    { id: '1', skip_invalid: 'yes' },
    'skip_invalid',
  ],
  // format
  ['format=xml', 'get_fear_and_greed_latest', { format: 'xml' }, 'format'],
  ['format=xml on listings', 'get_cryptocurrency_listings_latest', { limit: 5, format: 'xml' }, 'format'],
];

let sandbox: Sandbox;
let mcp: Session;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
  mcp = await startMcp(sandboxEnv(sandbox));
});
afterAll(async () => {
  await mcp?.close();
  await sandbox?.close();
});

describe('refusals before any upstream request', () => {
  it('the setup reaches the sandbox: an accepted call is one request', async () => {
    const before = sandbox.stats.requests;
    const result = await mcp.call('get_fear_and_greed_latest');
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(sandbox.stats.requests).toBe(before + 1);
  });

  it.each(REFUSALS)('%s: %s %j → isError naming "%s"', async (_, tool, args, param) => {
    expect(mcp.tools.map((t) => t.name)).toContain(tool);
    const before = sandbox.stats.requests;
    const result = await mcp.call(tool, args);
    const text = textOf(result);
    expect(result.isError, text).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(text).toContain(`"${param}"`);
    expect(text.length).toBeLessThan(2000);
    expect(sandbox.stats.requests).toBe(before);
  });

  it('quotes with none of id, slug, symbol: says one of them is needed, naming no parameter as wrong', async () => {
    const before = sandbox.stats.requests;
    const result = await mcp.call('get_cryptocurrency_quotes_latest', {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('Missing parameter: one of "id", "slug" or "symbol" is required.');
    expect(sandbox.stats.requests).toBe(before);
  });

  it('a refusal says what is allowed (the field’s bounds)', async () => {
    const limit = textOf(await mcp.call('get_fear_and_greed_historical', { limit: 501 }));
    expect(limit).toMatch(/1 to 500/);
    const interval = textOf(await mcp.call('get_svc20_index_historical', { interval: '1h' }));
    expect(interval).toMatch(/5m, 15m, daily/);
    const unknown = textOf(await mcp.call('get_fear_and_greed_historical', { limt: 5 }));
    expect(unknown).toMatch(/takes: start, limit/);
    const nothing = textOf(await mcp.call('get_cryptocurrency_quotes_latest', {}));
    expect(nothing).toMatch(/one of "id", "slug" or "symbol"/);
  });

  it('the limits themselves are accepted (count 10000, 120 currencies, index count 10 with both bounds)', async () => {
    const before = sandbox.stats.requests;
    const accepted: [string, Record<string, unknown>][] = [
      ['get_fear_and_greed_historical', { start: 1, limit: 500 }],
      ['get_trending_community_topics', { limit: 5 }],
      ['get_svc20_index_historical', { ...both, count: 10 }],
      ['get_global_metrics_historical', { convert: 'USD,EUR,GBP,JPY' }],
      ['get_global_metrics_historical', { count: 1, interval: '365d' }],
      ['get_cryptocurrency_listings_latest', { limit: 1, price_min: 5, price_max: 5 }],
    ];
    for (const [tool, args] of accepted) {
      const result = await mcp.call(tool, args);
      expect(result.isError, `${tool}: ${textOf(result)}`).toBeFalsy();
    }
    expect(sandbox.stats.requests).toBe(before + accepted.length);
  });

  it('an unknown tool is an error result and no request', async () => {
    const before = sandbox.stats.requests;
    const result = await mcp.call('get_everything', {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Unknown tool "get_everything"/);
    expect(sandbox.stats.requests).toBe(before);
  });

  it('a mistyped tool name gets the closest names', async () => {
    const result = await mcp.call('get_fear_greed', {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^Unknown tool "get_fear_greed"\. Did you mean get_fear_and_greed_latest or get_fear_and_greed_historical\? tools\/list gives all \d+ tools\.$/,
    );
  });
});

describe('an answer larger than one answer may be read at', () => {
  const tenAssets = '1,1027,825,52,74,2,5426,3408,5994,6636';
  const candles = (id: string) => ({ id, count: 10_000, time_period: 'hourly', interval: 'hourly' });

  it('is refused before sending, free, saying how much to ask for; estimate_cost says the same', async () => {
    const heavy = await startMcp(heavyCallsEnv(sandbox, { SVC_MAX_CREDITS_PER_CALL: '100000' }));
    try {
      const before = sandbox.stats.requests;
      // Ten assets' 10,000 hourly candles: about 42 MB, past the 32 MiB the client reads.
      const refused = await heavy.call('get_ohlcv_historical', candles(tenAssets));
      const text = textOf(refused);
      expect(refused.isError, text).toBe(true);
      expect(text).toMatch(
        /^Refused before sending: the answer to this call may take up to 42 MB, more than/,
      );
      expect(text).toMatch(/Nothing was charged\. Ask for at most 79,891 records in one call/);
      expect(refused._meta?.credits).toBe(0);
      const estimate = await heavy.call('estimate_cost', {
        calls: [{ tool: 'get_ohlcv_historical', arguments: candles(tenAssets) }],
        format: 'json',
      });
      expect(JSON.stringify(estimate.structuredContent)).toContain('Refused before sending');
      expect(sandbox.stats.requests).toBe(before);
      const usage = await heavy.call('get_credit_usage', { format: 'json' });
      expect((usage.structuredContent as { spent: number }).spent).toBe(0);
      // Within the bound, the same assets are one request, answered.
      const fewer = await heavy.call('get_ohlcv_historical', { ...candles(tenAssets), count: 100 });
      expect(fewer.isError, textOf(fewer)).toBeFalsy();
      expect(sandbox.stats.requests).toBe(before + 1);
    } finally {
      await heavy.close();
    }
  });
});
