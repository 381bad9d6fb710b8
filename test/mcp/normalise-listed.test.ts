/**
 * The listed cryptocurrency endpoints answer in several shapes (keyed by id, by symbol with a list
 * per symbol, one object; quotes keyed or listed; numbers as strings; ranks as <brand>_rank): a
 * loopback server answers each, and the tool must give one documented structuredContent.
 */
import { describe, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { useFakeUpstreamSession } from '../helpers/fake-session.js';
import { okStatus } from '../helpers/upstream-shapes.js';

const session = useFakeUpstreamSession({ SVC_TOOLSETS: 'all' });

async function structured(path: string, data: unknown, tool: string, args: Record<string, unknown>) {
  session.upstream.reply(path, { body: { status: okStatus, data } });
  const result = await session.mcp.call(tool, args);
  expect(result.isError, textOf(result)).toBeFalsy();
  return result.structuredContent as Record<string, unknown>;
}

const T = '2026-11-22T11:59:00.000Z';
const btcRecord = {
  id: 1,
  name: 'Bitcoin',
  symbol: 'BTC',
  slug: 'bitcoin',
  cmc_rank: 1,
  num_market_pairs: 9000,
  circulating_supply: '19800000',
  max_supply: 21e6,
  date_added: '2013-04-28T00:00:00.000Z',
  tags: [{ slug: 'mineable', name: 'Mineable', category: 'OTHERS' }],
  platform: null,
  last_updated: T,
  quote: {
    USD: {
      price: '97000.5',
      percent_change_24h: 1.25,
      percent_change_30d: 9.5,
      market_cap: 1.92e12,
      tvl: null,
    },
  },
};
const btcAsset = {
  id: 1,
  name: 'Bitcoin',
  symbol: 'BTC',
  slug: 'bitcoin',
  rank: 1,
  circulating_supply: 19_800_000,
  max_supply: 21e6,
  last_updated: T,
  quote: [{ currency: 'USD', price: 97_000.5, percent_change_24h: 1.25, market_cap: 1.92e12 }],
};

describe('by asset: keyed by id, by symbol with lists', () => {
  it('quotes v2: keyed by id and by symbol give the same items', async () => {
    const byId = await structured(
      '/v2/cryptocurrency/quotes/latest',
      { '1': btcRecord },
      'get_cryptocurrency_quotes_latest_v2',
      { id: '1' },
    );
    expect(byId).toEqual({ items: [btcAsset] });
    const bySymbol = await structured(
      '/v2/cryptocurrency/quotes/latest',
      { BTC: [btcRecord] },
      'get_cryptocurrency_quotes_latest_v2',
      { symbol: 'BTC' },
    );
    expect(bySymbol).toEqual(byId);
  });

  it('info: url kinds without links left out, extra real fields ignored, a token platform kept', async () => {
    const record = {
      id: 5994,
      name: 'Shiba Inu',
      symbol: 'SHIB',
      slug: 'shiba-inu',
      category: 'token',
      logo: 'https://example.test/5994.png',
      description: 'A token.',
      date_added: '2020-08-01T00:00:00.000Z',
      tags: ['meme'],
      'tag-names': ['Meme'],
      platform: { id: 1027, name: 'Ethereum', symbol: 'ETH', slug: 'ethereum', token_address: '0x95ad' },
      urls: {
        website: ['https://shib.example'],
        twitter: [],
        reddit: ['https://reddit.example/r/shib'],
        chat: null,
      },
      contract_address: [{ contract_address: '0x95ad', platform: { name: 'Ethereum' } }],
      is_hidden: 0,
    };
    const expected = {
      items: [
        {
          id: 5994,
          name: 'Shiba Inu',
          symbol: 'SHIB',
          slug: 'shiba-inu',
          category: 'token',
          logo: 'https://example.test/5994.png',
          description: 'A token.',
          date_added: '2020-08-01T00:00:00.000Z',
          tags: ['meme'],
          platform: { id: 1027, name: 'Ethereum', symbol: 'ETH', slug: 'ethereum', token_address: '0x95ad' },
          urls: { website: ['https://shib.example'], reddit: ['https://reddit.example/r/shib'] },
        },
      ],
    };
    expect(
      await structured('/v2/cryptocurrency/info', { '5994': record }, 'get_cryptocurrency_info', {
        id: '5994',
      }),
    ).toEqual(expected);
    expect(
      await structured('/v2/cryptocurrency/info', { SHIB: [record] }, 'get_cryptocurrency_info', {
        symbol: 'SHIB',
      }),
    ).toEqual(expected);
  });

  it('price performance: periods keyed by name become a list; yesterday without high and low times', async () => {
    const period = (name: string) => ({
      open_timestamp: '2026-11-21T00:00:00.000Z',
      high_timestamp: name === 'yesterday' ? null : '2026-11-21T05:00:00.000Z',
      low_timestamp: name === 'yesterday' ? null : '2026-11-21T09:00:00.000Z',
      close_timestamp: '2026-11-21T23:59:59.999Z',
      quote: {
        USD: {
          open: 100,
          high: '110',
          low: 95,
          close: 105,
          percent_change: 5,
          price_change: 5,
          open_timestamp: 'x',
        },
      },
    });
    const data = {
      '1': {
        id: 1,
        name: 'Bitcoin',
        symbol: 'BTC',
        slug: 'bitcoin',
        last_updated: T,
        periods: { yesterday: period('yesterday'), '7d': period('7d') },
      },
    };
    const out = await structured(
      '/v2/cryptocurrency/price-performance-stats/latest',
      data,
      'get_price_performance',
      { id: '1' },
    );
    const periods = (out.items as { periods: Record<string, unknown>[] }[])[0].periods;
    expect(periods.map((p) => p.period)).toEqual(['yesterday', '7d']);
    expect(periods[0]).toMatchObject({ high_timestamp: null, low_timestamp: null });
    expect(periods[1].quote).toEqual([
      { currency: 'USD', open: 100, high: 110, low: 95, close: 105, percent_change: 5, price_change: 5 },
    ]);
  });
});

describe('OHLCV and quote history', () => {
  const candle = {
    time_open: '2026-11-21T00:00:00.000Z',
    time_close: '2026-11-21T23:59:59.999Z',
    time_high: '2026-11-21T05:00:00.000Z',
    time_low: '2026-11-21T09:00:00.000Z',
    quote: {
      USD: { open: 100, high: 110, low: 95, close: '105', volume: 1e9, market_cap: 2e12, timestamp: 'x' },
    },
  };
  const series = { id: 1, name: 'Bitcoin', symbol: 'BTC', quotes: [candle] };
  const expected = {
    items: [
      {
        id: 1,
        name: 'Bitcoin',
        symbol: 'BTC',
        quotes: [
          {
            time_open: '2026-11-21T00:00:00.000Z',
            time_close: '2026-11-21T23:59:59.999Z',
            time_high: '2026-11-21T05:00:00.000Z',
            time_low: '2026-11-21T09:00:00.000Z',
            quote: [
              { currency: 'USD', open: 100, high: 110, low: 95, close: 105, volume: 1e9, market_cap: 2e12 },
            ],
          },
        ],
      },
    ],
  };

  it.each([
    ['one object (a single id)', series, { id: '1' }],
    ['keyed by id', { '1': series }, { id: '1' }],
    ['keyed by symbol with lists', { BTC: [series] }, { symbol: 'BTC' }],
  ])('historical, %s', async (_, data, args) => {
    expect(
      await structured('/v2/cryptocurrency/ohlcv/historical', data, 'get_ohlcv_historical', args),
    ).toEqual(expected);
  });

  it('latest: keyed by id, time_close null left out', async () => {
    const data = {
      '1': {
        id: 1,
        name: 'Bitcoin',
        symbol: 'BTC',
        last_updated: T,
        time_open: '2026-11-22T00:00:00.000Z',
        time_close: null,
        quote: { USD: { open: 1, high: 2, low: 0.5, close: 1.5, volume: 10, last_updated: T } },
      },
    };
    const out = await structured('/v2/cryptocurrency/ohlcv/latest', data, 'get_ohlcv_latest', { id: '1' });
    expect(out).toEqual({
      items: [
        {
          id: 1,
          name: 'Bitcoin',
          symbol: 'BTC',
          last_updated: T,
          time_open: '2026-11-22T00:00:00.000Z',
          quote: [{ currency: 'USD', open: 1, high: 2, low: 0.5, close: 1.5, volume: 10 }],
        },
      ],
    });
  });

  it('quotes historical: keyed by id or by symbol; the quote keyed by currency (or by id with convert_id)', async () => {
    const point = {
      timestamp: T,
      quote: { '2790': { price: 90000, volume_24h: '5', market_cap: 1, timestamp: T } },
    };
    const record = { id: 1, name: 'Bitcoin', symbol: 'BTC', is_active: 1, is_fiat: 0, quotes: [point] };
    const expectedQuotes = {
      interval: '5m',
      items: [
        {
          id: 1,
          name: 'Bitcoin',
          symbol: 'BTC',
          is_active: 1,
          is_fiat: 0,
          quotes: [
            { timestamp: T, quote: [{ currency: '2790', price: 90000, volume_24h: 5, market_cap: 1 }] },
          ],
        },
      ],
    };
    expect(
      await structured(
        '/v3/cryptocurrency/quotes/historical',
        { '1': record },
        'get_cryptocurrency_quotes_historical',
        { id: '1', convert_id: '2790' },
      ),
    ).toEqual(expectedQuotes);
    expect(
      await structured(
        '/v3/cryptocurrency/quotes/historical',
        { BTC: [record] },
        'get_cryptocurrency_quotes_historical',
        { symbol: 'BTC', convert_id: '2790' },
      ),
    ).toEqual(expectedQuotes);
  });
});

describe('lists, categories, market pairs, the map', () => {
  it.each([
    ['/v1/cryptocurrency/listings/latest', 'get_cryptocurrency_listings_latest_v1', {}],
    [
      '/v1/cryptocurrency/listings/historical',
      'get_cryptocurrency_listings_historical',
      { date: '2026-11-01' },
    ],
  ])('%s: the §16 record, cmc_rank as rank, numbers as strings', async (path, tool, args) => {
    const out = await structured(path, [btcRecord], tool, args);
    expect((out.items as unknown[])[0]).toEqual(btcAsset);
  });

  it('gainers and losers keep the 30-day change; new listings keep the date added', async () => {
    const movers = await structured(
      '/v1/cryptocurrency/trending/gainers-losers',
      [btcRecord],
      'get_gainers_losers',
      { time_period: '30d' },
    );
    expect((movers.items as { quote: unknown[] }[])[0].quote).toEqual([
      { ...btcAsset.quote[0], percent_change_30d: 9.5 },
    ]);
    const fresh = await structured(
      '/v1/cryptocurrency/listings/new',
      [btcRecord],
      'get_new_cryptocurrencies',
      {},
    );
    expect((fresh.items as { date_added: string }[])[0].date_added).toBe('2013-04-28T00:00:00.000Z');
  });

  it('category: the object itself and the documented {"1": {...}} give the same answer', async () => {
    const category = {
      id: '605e2ce9d41eae1066535f7c',
      name: 'A16Z Portfolio',
      num_tokens: '12',
      market_cap: 2.9e10,
      coins: [btcRecord],
    };
    const id = '605e2ce9d41eae1066535f7c';
    const plain = await structured('/v1/cryptocurrency/category', category, 'get_category', { id });
    const keyed = await structured('/v1/cryptocurrency/category', { '1': category }, 'get_category', { id });
    expect(keyed).toEqual(plain);
    expect(plain).toEqual({
      id,
      name: 'A16Z Portfolio',
      num_tokens: 12,
      market_cap: 2.9e10,
      start: 1,
      coins: [btcAsset],
    });
    const list = await structured(
      '/v1/cryptocurrency/categories',
      [{ ...category, coins: undefined, volume_change: '-10.5' }],
      'list_categories',
      {},
    );
    expect(list).toEqual({
      start: 1,
      items: [{ id, name: 'A16Z Portfolio', num_tokens: 12, market_cap: 2.9e10, volume_change: -10.5 }],
    });
  });

  it('market pairs: exchange and sides flattened, the exchange-reported figures kept out of quote', async () => {
    const data = {
      id: 1,
      name: 'Bitcoin',
      symbol: 'BTC',
      num_market_pairs: 7526,
      market_pairs: [
        {
          exchange: { id: 157, name: 'BitMEX', slug: 'bitmex' },
          market_id: 4902,
          market_pair: 'BTC/USD',
          category: 'derivatives',
          fee_type: 'no-fees',
          market_pair_base: {
            currency_id: 1,
            currency_symbol: 'BTC',
            exchange_symbol: 'XBT',
            currency_type: 'cryptocurrency',
          },
          market_pair_quote: {
            currency_id: 2781,
            currency_symbol: 'USD',
            exchange_symbol: 'USD',
            currency_type: 'fiat',
          },
          quote: {
            exchange_reported: {
              price: 7839,
              volume_24h_base: 434215.8,
              volume_24h_quote: 3.4e9,
              last_updated: T,
            },
            USD: { price: 7839, volume_24h: 3.4e9, last_updated: T },
          },
        },
      ],
    };
    expect(
      await structured('/v2/cryptocurrency/market-pairs/latest', data, 'get_market_pairs', { id: '1' }),
    ).toEqual({
      id: 1,
      name: 'Bitcoin',
      symbol: 'BTC',
      num_market_pairs: 7526,
      start: 1,
      market_pairs: [
        {
          exchange: 'BitMEX',
          exchange_id: 157,
          market_pair: 'BTC/USD',
          category: 'derivatives',
          fee_type: 'no-fees',
          base_currency_id: 1,
          quote_currency_id: 2781,
          quote: [{ currency: 'USD', price: 7839, volume_24h: 3.4e9 }],
        },
      ],
    });
  });

  it('map: a token platform, a coin with none, ranks as numbers', async () => {
    const data = [
      {
        id: 825,
        rank: '5',
        name: 'Tether',
        symbol: 'USDT',
        slug: 'tether',
        is_active: 1,
        platform: { id: 1027, name: 'Ethereum', symbol: 'ETH', slug: 'ethereum', token_address: '0xdac1' },
      },
      { id: 1, rank: 1, name: 'Bitcoin', symbol: 'BTC', slug: 'bitcoin', is_active: 1, platform: null },
    ];
    const out = await structured('/v1/cryptocurrency/map', data, 'get_cryptocurrency_map', {});
    expect(out.items).toEqual([
      {
        id: 825,
        rank: 5,
        name: 'Tether',
        symbol: 'USDT',
        slug: 'tether',
        is_active: 1,
        platform: { id: 1027, name: 'Ethereum', symbol: 'ETH', slug: 'ethereum', token_address: '0xdac1' },
      },
      { id: 1, rank: 1, name: 'Bitcoin', symbol: 'BTC', slug: 'bitcoin', is_active: 1, platform: null },
    ]);
  });
});
