/**
 * The listed cryptocurrency endpoints over real HTTP: shapes as documented (keyed by id, by symbol
 * with lists, one object), charges by the documented rules (docs/service.md, "Credits"), and agreement with the same market.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOW_S } from '../helpers/now.js';
import { type Client, DAY, openSandbox, unix } from './helpers.js';

let c: Client;
beforeAll(async () => {
  c = await openSandbox({ rateLimit: false });
});
afterAll(() => c.sandbox.close());

/** 200 with the standard status, and the credits charged. */
async function ok(path: string, credits?: number) {
  const r = await c.get(path);
  expect(r.status, `${path}: ${r.text.slice(0, 300)}`).toBe(200);
  expect(r.body.status).toMatchObject({ error_code: 0, error_message: null });
  if (credits !== undefined) expect(r.body.status.credit_count, path).toBe(credits);
  return r.body;
}

type Quote = Record<string, number | string>;
/** The USD figures the tests read from a record's quote. */
type UsdFigures = Record<
  | 'open'
  | 'high'
  | 'low'
  | 'close'
  | 'price'
  | 'percent_change'
  | 'percent_change_24h'
  | 'percent_change_7d'
  | 'percent_change_30d'
  | 'volume_24h',
  number
>;
const usd = (record: { quote: Record<string, Quote> }) => record.quote.USD as unknown as UsdFigures;

describe('v2 by-asset endpoints: keyed by id, by symbol with lists', () => {
  it('quotes v2: keyed by id for ids and slugs, lists per symbol, tags as objects', async () => {
    const byId = await ok('/v2/cryptocurrency/quotes/latest?id=1,1027', 1);
    expect(Object.keys(byId.data).sort()).toEqual(['1', '1027']);
    expect(byId.data['1'].tags[0]).toEqual({ slug: 'mineable', name: 'Mineable', category: 'OTHERS' });
    const bySlug = await ok('/v2/cryptocurrency/quotes/latest?slug=ethereum');
    expect(Object.keys(bySlug.data)).toEqual(['1027']);
    const bySymbol = await ok('/v2/cryptocurrency/quotes/latest?symbol=BTC,ETH&convert=USD,EUR', 2);
    expect(bySymbol.data.BTC).toHaveLength(1);
    expect(Object.keys(bySymbol.data.ETH[0].quote)).toEqual(['USD', 'EUR']);
    // Unknown assets are skipped by default in v2.
    expect(Object.keys((await ok('/v2/cryptocurrency/quotes/latest?id=1,999999999')).data)).toEqual(['1']);
  });

  it('info: keyed by id (ids, slugs, an address), lists per symbol; url lists; unknown ones refused by default', async () => {
    const info = await ok('/v2/cryptocurrency/info?id=1', 1);
    expect(info.data['1']).toMatchObject({ id: 1, slug: 'bitcoin', category: 'coin', platform: null });
    for (const list of Object.values(info.data['1'].urls)) expect(Array.isArray(list)).toBe(true);
    const bonk = (await ok('/v2/cryptocurrency/info?symbol=BONK')).data.BONK[0];
    expect(bonk.category).toBe('token');
    const byAddress = await ok(`/v2/cryptocurrency/info?address=${bonk.platform.token_address}`);
    expect(Object.keys(byAddress.data)).toEqual([String(bonk.id)]);
    const unknown = await c.get('/v2/cryptocurrency/info?id=1,999999999');
    expect(unknown.status).toBe(400);
    expect(unknown.body.status.error_message).toContain('skip_invalid');
  });

  it('price performance: periods by name; yesterday without high and low times; open ≤ high, low ≤ close', async () => {
    const r = await ok(
      '/v2/cryptocurrency/price-performance-stats/latest?id=1&time_period=all_time,yesterday,7d',
      1,
    );
    const periods = r.data['1'].periods;
    expect(Object.keys(periods)).toEqual(['all_time', 'yesterday', '7d']);
    expect(periods.yesterday.high_timestamp).toBeNull();
    for (const p of Object.values(periods) as { quote: { USD: UsdFigures } }[]) {
      const q = p.quote.USD;
      expect(q.high).toBeGreaterThanOrEqual(Math.max(q.open, q.close));
      expect(q.low).toBeLessThanOrEqual(Math.min(q.open, q.close));
      expect(q.percent_change).toBeCloseTo((q.close / q.open - 1) * 100, 9);
    }
    expect(periods.all_time.quote.USD.high).toBeGreaterThanOrEqual(periods['7d'].quote.USD.high);
  });
});

describe('OHLCV', () => {
  it('historical: one object for one id, keyed for several, lists per symbol; 1 per started 100 points', async () => {
    const one = await ok('/v2/cryptocurrency/ohlcv/historical?id=1&count=10', 1);
    expect(one.data).toMatchObject({ id: 1, symbol: 'BTC' });
    expect(one.data.quotes).toHaveLength(10);
    const two = await ok('/v2/cryptocurrency/ohlcv/historical?id=1,1027&count=60', 2);
    expect(Object.keys(two.data).sort()).toEqual(['1', '1027']);
    const bySymbol = await ok('/v2/cryptocurrency/ohlcv/historical?symbol=ETH&count=2');
    expect(bySymbol.data.ETH[0].quotes).toHaveLength(2);
  });

  it('daily candles chain (each opens where the last closed) and hold every 5-minute quote of their day', async () => {
    const candles = (await ok('/v2/cryptocurrency/ohlcv/historical?id=1027&count=3')).data.quotes;
    for (let k = 1; k < candles.length; k++) {
      expect(usd(candles[k]).open).toBeCloseTo(usd(candles[k - 1]).close, 0);
    }
    const day = candles[1];
    const start = unix(day.time_open);
    const quotes = (
      await ok(
        `/v3/cryptocurrency/quotes/historical?id=1027&interval=5m&time_start=${start}&time_end=${start + DAY - 1}&count=300`,
      )
    ).data['1027'].quotes as { quote: { USD: { price: number } } }[];
    expect(quotes.length).toBeGreaterThan(250);
    for (const q of quotes) {
      expect(q.quote.USD.price).toBeLessThanOrEqual(usd(day).high);
      expect(q.quote.USD.price).toBeGreaterThanOrEqual(usd(day).low);
    }
  });

  it('latest: today so far, still open, closing at the latest price', async () => {
    const latest = (await ok('/v2/cryptocurrency/ohlcv/latest?id=1', 1)).data['1'];
    expect(latest.time_close).toBeNull();
    expect(latest.time_open).toBe(new Date((NOW_S - (NOW_S % DAY)) * 1000).toISOString());
    const price = usd((await ok('/v3/cryptocurrency/quotes/latest?id=1')).data[0]).price;
    expect(usd(latest).close).toBe(price);
  });

  it('historical reaches back as far as the plan: Startup one month, Standard three', async () => {
    const twoMonths = `/v2/cryptocurrency/ohlcv/historical?id=1&time_start=${NOW_S - 60 * DAY}&count=5`;
    const startup = await c.get(twoMonths, 'sandbox-startup');
    expect(startup.status).toBe(403);
    expect(startup.body.status.error_message).toMatch(/Startup.*1 month/);
    expect((await c.get(twoMonths, 'sandbox-standard')).status).toBe(200);
    expect((await c.get('/v2/cryptocurrency/ohlcv/historical?id=1', 'sandbox-hobbyist')).status).toBe(403);
  });
});

describe('quotes historical (v3)', () => {
  it('keyed by id, or by symbol with lists; one point per period; charged per started 100 points and converts', async () => {
    const r = await ok(
      '/v3/cryptocurrency/quotes/historical?id=1,1027&count=60&interval=1h&convert=USD,EUR',
      3,
    );
    expect(r.data['1'].quotes).toHaveLength(60);
    expect(Object.keys(r.data['1'].quotes[0].quote)).toEqual(['USD', 'EUR']);
    const bySymbol = await ok('/v3/cryptocurrency/quotes/historical?symbol=SOL&count=2');
    expect(bySymbol.data.SOL[0]).toMatchObject({ id: 5426, is_active: 1, is_fiat: 0 });
    const latest = usd((await ok('/v3/cryptocurrency/quotes/latest?id=1')).data[0]);
    const last = r.data['1'].quotes.at(-1).quote.USD;
    expect(last.price).toBe(latest.price);
  });
});

describe('lists', () => {
  it('gainers and losers: by the period change, largest first, or smallest with asc', async () => {
    const gainers = (await ok('/v1/cryptocurrency/trending/gainers-losers?limit=10&time_period=7d', 1)).data;
    const changes = gainers.map((a: { quote: Record<string, Quote> }) => usd(a).percent_change_7d);
    expect([...changes].sort((a, b) => b - a)).toEqual(changes);
    const losers = (await ok('/v1/cryptocurrency/trending/gainers-losers?limit=10&sort_dir=asc')).data;
    const down = losers.map((a: { quote: Record<string, Quote> }) => usd(a).percent_change_24h);
    expect([...down].sort((a, b) => a - b)).toEqual(down);
    const month = (await ok('/v1/cryptocurrency/trending/gainers-losers?limit=3&time_period=30d')).data;
    expect(usd(month[0]).percent_change_30d).toBeGreaterThan(usd(month[2]).percent_change_30d);
  });

  it('new listings: by date added, newest first unless asc', async () => {
    const newest = (await ok('/v1/cryptocurrency/listings/new?limit=20', 1)).data;
    const added = newest.map((a: { date_added: string }) => unix(a.date_added));
    expect([...added].sort((a, b) => b - a)).toEqual(added);
    const oldest = (await ok('/v1/cryptocurrency/listings/new?limit=1&sort_dir=asc')).data;
    expect(unix(oldest[0].date_added)).toBeLessThanOrEqual(added.at(-1));
  });

  it('trending and most visited: 100 assets by default, charged 1 per started 200', async () => {
    expect((await ok('/v1/cryptocurrency/trending/latest', 1)).data).toHaveLength(100);
    const visited = (await ok('/v1/cryptocurrency/trending/most-visited?time_period=30d&limit=5', 1)).data;
    expect(visited).toHaveLength(5);
  });

  it('historical listings: the end of a completed day; not today; within the plan', async () => {
    const r = await ok('/v1/cryptocurrency/listings/historical?date=2026-11-01&limit=3', 1);
    expect(r.data.map((a: { svc_rank: number }) => a.svc_rank)).toEqual([1, 2, 3]);
    expect(r.data[0].last_updated).toBe('2026-11-01T23:55:00.000Z');
    const today = await c.get('/v1/cryptocurrency/listings/historical?date=2026-11-22');
    expect(today.status).toBe(400);
    expect(today.body.status.error_message).toContain('not a completed UTC day');
    expect(
      (await c.get('/v1/cryptocurrency/listings/historical?date=2026-08-01', 'sandbox-hobbyist')).status,
    ).toBe(403);
    expect(
      (await c.get('/v1/cryptocurrency/listings/historical?date=2026-11-01', 'sandbox-basic')).status,
    ).toBe(403);
  });
});

describe('categories, market pairs', () => {
  it('categories are the tags: 24-hex ids, coin counts and caps that agree with the listings', async () => {
    const listings = (await ok('/v3/cryptocurrency/listings/latest?limit=5000')).data as {
      tags: string[];
      quote: { USD: { market_cap: number } };
    }[];
    // 1 per call + 1 per started 200 categories.
    const categories = (await ok('/v1/cryptocurrency/categories', 2)).data;
    const layer1 = categories.find((k: { name: string }) => k.name === 'Layer 1');
    expect(layer1.id).toMatch(/^[0-9a-f]{24}$/);
    const members = listings.filter((a) => a.tags.includes('layer-1'));
    expect(layer1.num_tokens).toBe(members.length);
    expect(layer1.market_cap).toBeCloseTo(
      members.reduce((s, a) => s + a.quote.USD.market_cap, 0),
      0,
    );
    const one = await ok(`/v1/cryptocurrency/category?id=${layer1.id}&limit=5`, 2);
    expect(one.data.coins).toHaveLength(5);
    for (const coin of one.data.coins) expect(coin.tags).toContain('layer-1');
    expect((await c.get('/v1/cryptocurrency/category?id=000000000000000000000000')).status).toBe(400);
  });

  it('market pairs: as many as the listings say, largest volume first, filtered by the other side', async () => {
    const btc = (await ok('/v3/cryptocurrency/quotes/latest?id=1')).data[0];
    const r = await ok('/v2/cryptocurrency/market-pairs/latest?id=1&limit=150&convert=USD,EUR', 3);
    expect(r.data.num_market_pairs).toBe(btc.num_market_pairs);
    const volumes = r.data.market_pairs.map((p: { quote: Record<string, Quote> }) => usd(p).volume_24h);
    expect([...volumes].sort((a, b) => b - a)).toEqual(volumes);
    expect(r.data.market_pairs[0].quote.exchange_reported).toBeDefined();
    const usdt = await ok('/v2/cryptocurrency/market-pairs/latest?symbol=BTC&matched_symbol=USDT&limit=5');
    expect(usdt.data.num_market_pairs).toBeLessThan(r.data.num_market_pairs);
    for (const p of usdt.data.market_pairs) expect(p.market_pair).toBe('BTC/USDT');
    expect((await c.get('/v2/cryptocurrency/market-pairs/latest?id=1', 'sandbox-startup')).status).toBe(403);
  });
});
