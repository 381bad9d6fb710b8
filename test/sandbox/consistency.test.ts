/**
 * The endpoints agree with each other at the same instant, as one market would: totals are sums of
 * the listings, indices are the top assets by cap, sentiment reads the same prices.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGapSlot } from '../../src/sandbox/market/time.js';
import { NOW_S } from '../helpers/now.js';
import { type Client, DAY, openSandbox } from './helpers.js';

interface Listing {
  id: number;
  symbol: string;
  svc_rank: number;
  num_market_pairs: number;
  tags: string[];
  quote: { USD: { price: number; market_cap: number; percent_change_24h: number } };
}

let c: Client;
let listings: Listing[];
let global: Record<
  'btc_dominance' | 'eth_dominance' | 'active_cryptocurrencies' | 'active_market_pairs',
  number
> & {
  quote: { USD: Record<'total_market_cap' | 'altcoin_market_cap', number> };
};
const relative = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);

beforeAll(async () => {
  c = await openSandbox({ rateLimit: false });
  listings = (await c.get('/v3/cryptocurrency/listings/latest?limit=5000')).body.data;
  global = (await c.get('/v1/global-metrics/quotes/latest')).body.data;
});
afterAll(() => c.sandbox.close());

describe('global metrics and listings', () => {
  it('total market cap is the sum of the listed caps', () => {
    const sum = listings.reduce((s, a) => s + a.quote.USD.market_cap, 0);
    expect(relative(global.quote.USD.total_market_cap, sum)).toBeLessThan(1e-9);
  });

  it('btc and eth dominance are their shares of the total; altcoin cap is the total less bitcoin', () => {
    const cap = (id: number) => listings.find((a) => a.id === id)?.quote.USD.market_cap ?? Number.NaN;
    const total = global.quote.USD.total_market_cap;
    expect(global.btc_dominance).toBeCloseTo((cap(1) / total) * 100, 9);
    expect(global.eth_dominance).toBeCloseTo((cap(1027) / total) * 100, 9);
    expect(relative(global.quote.USD.altcoin_market_cap, total - cap(1))).toBeLessThan(1e-9);
  });

  it('counts match the listings: active cryptocurrencies and market pairs', () => {
    expect(global.active_cryptocurrencies).toBe(listings.length);
    expect(global.active_market_pairs).toBe(listings.reduce((s, a) => s + a.num_market_pairs, 0));
  });

  it('listing ranks follow market cap', () => {
    listings.forEach((a, k) => {
      expect(a.svc_rank).toBe(k + 1);
      if (k > 0) expect(a.quote.USD.market_cap).toBeLessThanOrEqual(listings[k - 1]!.quote.USD.market_cap);
    });
  });

  it('quotes agree with listings; stablecoins stay near one dollar', async () => {
    const q = (await c.get('/v3/cryptocurrency/quotes/latest?id=1,825,5426')).body.data;
    for (const record of q) {
      const listed = listings.find((a) => a.id === record.id);
      expect(record.quote.USD.price).toBe(listed?.quote.USD.price);
      expect(record.svc_rank).toBe(listed?.svc_rank);
    }
    for (const a of listings.filter((x) => x.tags.includes('stablecoin'))) {
      expect(Math.abs(a.quote.USD.price - 1)).toBeLessThan(0.005);
    }
  });
});

describe('indices and listings', () => {
  it('svc100 is the top 100 by cap, weighted by cap, weights summing to 100', async () => {
    const d = (await c.get('/v3/index/svc100-latest')).body.data;
    const top = listings.slice(0, 100);
    expect(d.constituents.map((k: { id: number }) => k.id)).toEqual(top.map((a) => a.id));
    const sumCap = top.reduce((s, a) => s + a.quote.USD.market_cap, 0);
    const sumWeights = d.constituents.reduce((s: number, k: { weight: number }) => s + k.weight, 0);
    expect(sumWeights).toBeCloseTo(100, 9);
    d.constituents.forEach((k: { weight: number }, i: number) => {
      expect(k.weight).toBeCloseTo((top[i]!.quote.USD.market_cap / sumCap) * 100, 9);
    });
  });

  it('svc20: priceUsd is the asset price; units × price add up to the index value', async () => {
    const d = (await c.get('/v3/index/svc20-latest')).body.data;
    expect(d.constituents.map((k: { id: number }) => k.id)).toEqual(listings.slice(0, 20).map((a) => a.id));
    let total = 0;
    for (const k of d.constituents) {
      expect(k.priceUsd).toBe(listings.find((a) => a.id === k.id)?.quote.USD.price);
      total += k.units * k.priceUsd;
    }
    expect(relative(total, d.value)).toBeLessThan(1e-9);
  });

  it('the 24h change compares with the value a day earlier', async () => {
    const latest = (await c.get('/v3/index/svc20-latest')).body.data;
    const history = (await c.get(`/v3/index/svc20-historical?time_end=${NOW_S - DAY}&interval=5m&count=1`))
      .body.data;
    expect(latest.value_24h_percentage_change).toBeCloseTo((latest.value / history[0].value - 1) * 100, 9);
    const now = (await c.get('/v3/index/svc20-historical?interval=5m&count=1')).body.data;
    expect(now[0].value).toBe(latest.value);
  });
});

describe('sentiment reads the same market', () => {
  it('fear and greed labels follow the bands, over 500 days that reach several bands', async () => {
    const items = (await c.get('/v3/fear-and-greed/historical?limit=500')).body.data;
    const band = (v: number) =>
      v < 20 ? 'Extreme Fear' : v < 40 ? 'Fear' : v < 60 ? 'Neutral' : v < 80 ? 'Greed' : 'Extreme Greed';
    const seen = new Set<string>();
    for (const item of items) {
      expect(item.value).toBeGreaterThanOrEqual(0);
      expect(item.value).toBeLessThanOrEqual(100);
      expect(item.value_classification).toBe(band(item.value));
      seen.add(item.value_classification);
    }
    expect(seen.size).toBeGreaterThanOrEqual(4);
    const latest = (await c.get('/v3/fear-and-greed/latest')).body.data;
    expect(latest.value_classification).toBe(band(latest.value));
  });

  it('the altcoin season index is the share of the top 100 altcoins beating bitcoin over 90 days', async () => {
    const earlier = await openSandbox({ now: new Date((NOW_S - 90 * DAY) * 1000) });
    try {
      const then = (await earlier.get('/v3/cryptocurrency/listings/latest?limit=5000')).body
        .data as Listing[];
      const priceThen = new Map(then.map((a) => [a.id, a.quote.USD.price]));
      const growth = (a: Listing) => a.quote.USD.price / (priceThen.get(a.id) ?? Number.NaN);
      const excluded = ['stablecoin', 'wrapped', 'gold'];
      const eligible = listings
        .filter((a) => a.id !== 1 && !a.tags.some((t) => excluded.includes(t)) && priceThen.has(a.id))
        .slice(0, 100);
      const btc = listings[0]!;
      const beat = eligible.filter((a) => growth(a) > growth(btc)).length;
      const index = (await c.get('/v1/altcoin-season-index/latest')).body.data.altcoin_index;
      expect(eligible).toHaveLength(100);
      expect(index).toBe(Math.round((beat / eligible.length) * 100));
    } finally {
      await earlier.sandbox.close();
    }
  });

  it('percent_change_24h compares with the price a day earlier (a sandbox frozen 24h before)', async () => {
    const earlier = await openSandbox({ now: new Date((NOW_S - DAY) * 1000) });
    try {
      const then = (await earlier.get('/v3/cryptocurrency/quotes/latest?id=1,1027')).body.data;
      for (const old of then) {
        const now = listings.find((a) => a.id === old.id);
        if (!now) throw new Error('missing');
        expect(now.quote.USD.percent_change_24h).toBeCloseTo(
          (now.quote.USD.price / old.quote.USD.price - 1) * 100,
          9,
        );
      }
    } finally {
      await earlier.sandbox.close();
    }
  });

  it('trending tokens carry their market-cap rank', async () => {
    const tokens = (await c.get('/v1/community/trending/token')).body.data;
    for (const t of tokens) expect(t.svc_rank).toBe(listings.find((a) => a.id === t.id)?.svc_rank);
  });

  it('historical global metrics at now equal the latest figures', async () => {
    // 12:00 is not a gap slot, so the last 5-minute period's quote is the latest instant itself.
    expect(isGapSlot(NOW_S)).toBe(false);
    const h = (await c.get('/v1/global-metrics/quotes/historical?interval=5m&count=1')).body.data.quotes;
    expect(h).toHaveLength(1);
    expect(h[0].timestamp).toBe('2026-11-22T12:00:00.000Z');
    expect(h[0].quote.USD.total_market_cap).toBe(global.quote.USD.total_market_cap);
    expect(h[0].btc_dominance).toBe(global.btc_dominance);
  });
});
