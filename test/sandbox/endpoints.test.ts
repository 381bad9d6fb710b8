/** Every endpoint over real HTTP: status 200, the spec's envelope, the data's shape. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOW_S } from '../helpers/now.js';
import { type Client, DAY, openSandbox, unix } from './helpers.js';

let c: Client;
beforeAll(async () => {
  c = await openSandbox({ rateLimit: false });
});
afterAll(() => c.sandbox.close());

/** The spec's status object on a success, with the frozen clock's timestamp and elapsed 0. */
function expectSuccessStatus(status: Record<string, unknown>, code: 0 | '0', credits: number): void {
  expect(status).toMatchObject({
    timestamp: '2026-11-22T12:00:00.000Z',
    error_code: code,
    error_message: null,
    elapsed: 0,
    credit_count: credits,
    notice: '',
  });
}

describe('global metrics', () => {
  it('latest answers the global record with a quote per currency', async () => {
    const r = await c.get('/v1/global-metrics/quotes/latest');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expectSuccessStatus(r.body.status, 0, 1);
    const d = r.body.data;
    for (const key of [
      'btc_dominance',
      'eth_dominance',
      'active_cryptocurrencies',
      'total_cryptocurrencies',
    ]) {
      expect(typeof d[key]).toBe('number');
    }
    expect(d.last_updated).toBe('2026-11-22T12:00:00.000Z');
    expect(Object.keys(d.quote)).toEqual(['USD']);
    expect(Object.keys(d.quote.USD).sort()).toEqual(
      [
        'altcoin_market_cap',
        'altcoin_volume_24h',
        'altcoin_volume_24h_reported',
        'last_updated',
        'total_market_cap',
        'total_volume_24h',
        'total_volume_24h_reported',
      ].sort(),
    );
    expect(d.quote.USD.total_market_cap).toBeGreaterThan(1e12);
  });

  it('latest converts into several currencies, one credit each, keyed by id with convert_id', async () => {
    const r = await c.get('/v1/global-metrics/quotes/latest?convert=USD,EUR,BTC');
    expectSuccessStatus(r.body.status, 0, 3);
    const q = r.body.data.quote;
    expect(Object.keys(q)).toEqual(['USD', 'EUR', 'BTC']);
    const btc = await c.get('/v3/cryptocurrency/quotes/latest?id=1');
    expect(q.BTC.total_market_cap).toBeCloseTo(q.USD.total_market_cap / btc.body.data[0].quote.USD.price, 0);
    expect(q.EUR.total_market_cap).toBeLessThan(q.USD.total_market_cap);
    const byId = await c.get('/v1/global-metrics/quotes/latest?convert_id=2781,2790');
    expect(Object.keys(byId.body.data.quote)).toEqual(['2781', '2790']);
    expect(byId.body.data.quote['2790'].total_market_cap).toBe(q.EUR.total_market_cap);
  });

  it('historical answers data.quotes, oldest first', async () => {
    const r = await c.get('/v1/global-metrics/quotes/historical?count=3');
    expectSuccessStatus(r.body.status, 0, 1);
    const times = r.body.data.quotes.map((q: { timestamp: string }) => unix(q.timestamp));
    expect(times.length).toBeGreaterThanOrEqual(2);
    expect([...times].sort()).toEqual(times);
    expect(r.body.data.quotes[0].quote.USD.timestamp).toBe(r.body.data.quotes[0].timestamp);
  });
});

describe('fear and greed', () => {
  it('latest: value, label and update time on the 15-minute bucket', async () => {
    const r = await c.get('/v3/fear-and-greed/latest');
    expectSuccessStatus(r.body.status, 0, 1);
    const { value, value_classification, update_time } = r.body.data;
    expect(Number.isInteger(value)).toBe(true);
    expect(value).toBeGreaterThanOrEqual(0);
    expect(value).toBeLessThanOrEqual(100);
    expect(typeof value_classification).toBe('string');
    expect(update_time).toBe('2026-11-22T12:00:00.000Z');
  });

  it('historical: 50 daily values at 00:00 UTC by default, newest first, Unix seconds as strings', async () => {
    const r = await c.get('/v3/fear-and-greed/historical');
    expectSuccessStatus(r.body.status, 0, 1);
    const items = r.body.data;
    expect(items).toHaveLength(50);
    expect(items[0].timestamp).toBe(String(NOW_S - (NOW_S % DAY)));
    items.forEach((item: { timestamp: string }, k: number) => {
      expect(item.timestamp).toMatch(/^\d+$/);
      expect(Number(item.timestamp)).toBe(Number(items[0].timestamp) - k * DAY);
    });
  });
});

describe('altcoin season', () => {
  it('latest: index 0–100 inside its yearly range', async () => {
    const r = await c.get('/v1/altcoin-season-index/latest');
    expectSuccessStatus(r.body.status, 0, 1);
    const d = r.body.data;
    expect(d.altcoin_index).toBeGreaterThanOrEqual(d.yearly_low);
    expect(d.altcoin_index).toBeLessThanOrEqual(d.yearly_high);
    expect(d.yearly_low).toBeGreaterThanOrEqual(0);
    expect(d.yearly_high).toBeLessThanOrEqual(100);
    expect(d.snapshot_time).toBe('2026-11-22T12:00:00.000Z');
    expect(d.altcoin_marketcap).toBeGreaterThan(0);
    expect(unix(d.yearly_high_date)).toBeGreaterThanOrEqual(NOW_S - 366 * DAY);
  });

  it('historical: one point per day of the timeframe, oldest first; default 7d', async () => {
    for (const [query, days] of [
      ['', 7],
      ['?timeframe=30d', 30],
      ['?timeframe=90d', 90],
    ] as const) {
      const r = await c.get(`/v1/altcoin-season-index/historical${query}`);
      expectSuccessStatus(r.body.status, 0, 1);
      const { timeframe, points } = r.body.data;
      expect(timeframe).toBe(query === '' ? '7d' : query.slice(11));
      expect(points).toHaveLength(days);
      expect(unix(points[points.length - 1].timestamp)).toBe(NOW_S - (NOW_S % DAY));
      expect(unix(points[1].timestamp) - unix(points[0].timestamp)).toBe(DAY);
    }
  });
});

describe('indices', () => {
  it('svc100 latest: 100 constituents, string error code, total_count, timestamps without ms', async () => {
    const r = await c.get('/v3/index/svc100-latest');
    expectSuccessStatus(r.body.status, '0', 1);
    expect(r.body.status.total_count).toBe(1);
    const d = r.body.data;
    expect(d.constituents).toHaveLength(100);
    expect(d.last_update).toBe('2026-11-22T12:00:00Z');
    expect(d.next_update).toBe('2026-11-22T12:05:00Z');
    expect(typeof d.value_24h_percentage_change).toBe('number');
    expect(d.constituents[0]).toEqual({
      id: 1,
      name: 'Bitcoin',
      symbol: 'BTC',
      url: expect.any(String),
      weight: expect.any(Number),
    });
  });

  it('svc20 latest: 20 constituents carrying priceUsd and units', async () => {
    const r = await c.get('/v3/index/svc20-latest');
    expect(r.body.data.constituents).toHaveLength(20);
    for (const k of r.body.data.constituents) {
      expect(k.priceUsd).toBeGreaterThan(0);
      expect(k.units).toBeGreaterThan(0);
    }
  });

  it('historical: items with constituents, update_time and value; total_count counts them', async () => {
    const r = await c.get('/v3/index/svc20-historical?count=3&interval=5m');
    expectSuccessStatus(r.body.status, '0', 1);
    expect(r.body.status.total_count).toBe(3);
    expect(r.body.data.map((i: { update_time: string }) => i.update_time)).toEqual([
      '2026-11-22T11:50:00Z',
      '2026-11-22T11:55:00Z',
      '2026-11-22T12:00:00Z',
    ]);
    expect(r.body.data[0].constituents).toHaveLength(20);
  });
});

describe('community trending', () => {
  it('tokens: up to 5 items {id,name,symbol,slug,svc_rank,rank}, free, string error code', async () => {
    const r = await c.get('/v1/community/trending/token');
    expectSuccessStatus(r.body.status, '0', 0);
    expect(r.body.data).toHaveLength(5);
    r.body.data.forEach((t: Record<string, unknown>, k: number) => {
      expect(Object.keys(t).sort()).toEqual(['id', 'name', 'rank', 'slug', 'svc_rank', 'symbol']);
      expect(t.rank).toBe(k + 1);
    });
    expect((await c.get('/v1/community/trending/token?limit=2')).body.data).toHaveLength(2);
  });

  it('topics: a single {rank, topic} object for limit=1, an array otherwise', async () => {
    const one = await c.get('/v1/community/trending/topic?limit=1');
    expectSuccessStatus(one.body.status, '0', 0);
    expect(one.body.data).toEqual({ rank: 1, topic: expect.any(String) });
    const many = await c.get('/v1/community/trending/topic');
    expect(many.body.data).toHaveLength(5);
    expect(many.body.data[0]).toEqual(one.body.data);
  });
});

describe('DEX platforms', () => {
  it('list: a bare array of platform objects with the short field names', async () => {
    const r = await c.get('/v1/dex/platform/list');
    expect(r.status).toBe(200);
    expect(Array.isArray(r.body)).toBe(true);
    expect(r.body.length).toBeGreaterThanOrEqual(20);
    const fields = [
      'addrUrl',
      'chId',
      'cid',
      'dn',
      'hl',
      'ho',
      'i',
      'id',
      'n',
      'p',
      'pltA',
      'puf',
      'txuf',
      'uf',
      'v',
      'wcId',
    ];
    for (const p of r.body) {
      expect(Object.keys(p).sort()).toEqual(fields);
      expect(typeof p.dn).toBe('string');
      expect(p.uf).toMatch(/\{[a-zA-Z]+\}/);
    }
  });

  it('detail: a bare object, by name or acronym, case-insensitively', async () => {
    const byName = await c.get('/v1/dex/platform/detail?platformName=solana');
    expect(byName.status).toBe(200);
    expect(byName.body).toMatchObject({ n: 'Solana', pltA: 'SOL' });
    expect(byName.body.status).toBeUndefined();
    const byAcronym = await c.get('/v1/dex/platform/detail?platformName=bsc');
    expect(byAcronym.body.n).toBe('BSC');
  });
});

describe('cryptocurrency listings and quotes', () => {
  it('listings: 100 records by default, ranked, quote keyed by currency', async () => {
    const r = await c.get('/v3/cryptocurrency/listings/latest');
    expectSuccessStatus(r.body.status, 0, 1);
    expect(r.body.data).toHaveLength(100);
    const btc = r.body.data[0];
    expect(btc).toMatchObject({
      id: 1,
      name: 'Bitcoin',
      symbol: 'BTC',
      slug: 'bitcoin',
      svc_rank: 1,
      max_supply: 21e6,
    });
    expect(btc.last_updated).toBe('2026-11-22T12:00:00.000Z');
    expect(Object.keys(btc.quote)).toEqual(['USD']);
    for (const key of ['price', 'volume_24h', 'percent_change_24h', 'market_cap', 'last_updated']) {
      expect(btc.quote.USD).toHaveProperty(key);
    }
  });

  it('listings: start pages; limit=5000 returns every asset at 1 credit per 200', async () => {
    const all = await c.get('/v3/cryptocurrency/listings/latest?limit=5000');
    const n = all.body.data.length;
    expect(n).toBeGreaterThan(200);
    expect(all.body.status.credit_count).toBe(Math.ceil(n / 200));
    const page = await c.get('/v3/cryptocurrency/listings/latest?start=11&limit=5');
    expect(page.body.data.map((a: { id: number }) => a.id)).toEqual(
      all.body.data.slice(10, 15).map((a: { id: number }) => a.id),
    );
  });

  it('listings: filters and sorts', async () => {
    const tokens = await c.get('/v3/cryptocurrency/listings/latest?cryptocurrency_type=tokens&limit=5000');
    expect(tokens.body.data.every((a: { platform: unknown }) => a.platform !== null)).toBe(true);
    const coins = await c.get('/v3/cryptocurrency/listings/latest?cryptocurrency_type=coins&limit=5000');
    expect(coins.body.data.every((a: { platform: unknown }) => a.platform === null)).toBe(true);
    const meme = await c.get('/v3/cryptocurrency/listings/latest?tag=meme&limit=5000');
    expect(meme.body.data.length).toBeGreaterThan(5);
    expect(meme.body.data.every((a: { tags: string[] }) => a.tags.includes('meme'))).toBe(true);
    const pricey = await c.get('/v3/cryptocurrency/listings/latest?price_min=1000&limit=5000');
    expect(pricey.body.data.length).toBeGreaterThan(2);
    expect(
      pricey.body.data.every((a: { quote: { USD: { price: number } } }) => a.quote.USD.price >= 1000),
    ).toBe(true);
    const byName = await c.get('/v3/cryptocurrency/listings/latest?sort=name&sort_dir=asc&limit=20');
    const names = byName.body.data.map((a: { name: string }) => a.name.toLowerCase());
    expect(names).toEqual([...names].sort((x: string, y: string) => x.localeCompare(y)));
    const byChange = await c.get('/v3/cryptocurrency/listings/latest?sort=percent_change_24h&limit=50');
    const changes = byChange.body.data.map(
      (a: { quote: { USD: { percent_change_24h: number } } }) => a.quote.USD.percent_change_24h,
    );
    expect(changes).toEqual([...changes].sort((x: number, y: number) => y - x));
  });

  it('quotes: by id, slug or symbol, data an array with 1h/24h/7d changes', async () => {
    const byId = await c.get('/v3/cryptocurrency/quotes/latest?id=1027,1');
    expectSuccessStatus(byId.body.status, 0, 1);
    expect(byId.body.data.map((a: { id: number }) => a.id)).toEqual([1027, 1]);
    for (const key of ['percent_change_1h', 'percent_change_24h', 'percent_change_7d']) {
      expect(typeof byId.body.data[0].quote.USD[key]).toBe('number');
    }
    const bySlug = await c.get('/v3/cryptocurrency/quotes/latest?slug=ethereum,bitcoin');
    const bySymbol = await c.get('/v3/cryptocurrency/quotes/latest?symbol=ETH,btc');
    expect(bySlug.body.data).toEqual(byId.body.data);
    expect(bySymbol.body.data).toEqual(byId.body.data);
  });

  it('quotes: unknown ids are skipped with skip_invalid=true', async () => {
    const r = await c.get('/v3/cryptocurrency/quotes/latest?id=1,99999999&skip_invalid=true');
    expect(r.status).toBe(200);
    expect(r.body.data.map((a: { id: number }) => a.id)).toEqual([1]);
  });
});

describe('listed endpoints the server needs', () => {
  it('key info: plan and usage in the documented shape, 0 credits', async () => {
    const r = await c.get('/v1/key/info');
    expectSuccessStatus(r.body.status, 0, 0);
    expect(r.body.data).toEqual({
      plan: {
        credit_limit_monthly: expect.any(Number),
        credit_limit_monthly_reset: 'In 8 days, 12 hours, 0 minutes',
        credit_limit_monthly_reset_timestamp: '2026-12-01T00:00:00.000Z',
        rate_limit_minute: 120,
      },
      usage: {
        current_minute: { requests_made: expect.any(Number), requests_left: expect.any(Number) },
        current_day: { credits_used: expect.any(Number), credits_left: expect.any(Number) },
        current_month: { credits_used: expect.any(Number), credits_left: expect.any(Number) },
      },
    });
  });

  it('cryptocurrency map: ids, ranks and platforms, free', async () => {
    const r = await c.get('/v1/cryptocurrency/map?limit=3');
    expectSuccessStatus(r.body.status, 0, 0);
    expect(r.body.data.map((a: { id: number }) => a.id)).toEqual([1, 2, 52]);
    expect(r.body.data[0]).toMatchObject({ id: 1, rank: 1, slug: 'bitcoin', is_active: 1, platform: null });
    const usdt = await c.get('/v1/cryptocurrency/map?symbol=USDT');
    expect(usdt.body.data).toHaveLength(1);
    expect(usdt.body.data[0].platform).toMatchObject({
      id: 1027,
      slug: 'ethereum',
      token_address: expect.stringMatching(/^0x[0-9a-f]{40}$/),
    });
    const byRank = await c.get('/v1/cryptocurrency/map?sort=svc_rank&limit=3&aux=status');
    expect(byRank.body.data.map((a: { rank: number }) => a.rank)).toEqual([1, 2, 3]);
    expect(byRank.body.data[0]).toEqual({
      id: 1,
      rank: 1,
      name: 'Bitcoin',
      symbol: 'BTC',
      slug: 'bitcoin',
      status: 'active',
    });
  });

  it('price conversion: an object by id, a list by symbol, 1 credit per currency', async () => {
    const byId = await c.get('/v2/tools/price-conversion?amount=2&id=1&convert=USD,EUR');
    expectSuccessStatus(byId.body.status, 0, 2);
    const price = (await c.get('/v3/cryptocurrency/quotes/latest?id=1')).body.data[0].quote.USD.price;
    expect(byId.body.data).toMatchObject({ id: 1, symbol: 'BTC', amount: 2 });
    expect(byId.body.data.quote.USD.price).toBeCloseTo(2 * price, 6);
    const bySymbol = await c.get('/v2/tools/price-conversion?amount=100&symbol=EUR&convert=USD');
    expect(Array.isArray(bySymbol.body.data)).toBe(true);
    expect(bySymbol.body.data[0].quote.USD.price).toBeGreaterThan(100);
    const past = await c.get(`/v2/tools/price-conversion?amount=1&id=1&time=${NOW_S - 10 * DAY}`);
    expect(past.body.data.last_updated).toBe(new Date((NOW_S - 10 * DAY) * 1000).toISOString());
    expect(past.body.data.quote.USD.price).not.toBe(price);
  });

  it('an unknown path is a 404 with a status body', async () => {
    const r = await c.get('/v1/nothing/here');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ status: expect.objectContaining({ error_code: 404, credit_count: 0 }) });
    expect(r.body.status.error_message).toContain('/v1/nothing/here');
  });
});
