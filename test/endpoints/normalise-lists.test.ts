/**
 * The listed cryptocurrency lists, categories, market pairs and map in the shapes the service uses
 * (quotes keyed, numbers as strings, ranks as <brand>_rank, a category keyed by id or not): a
 * loopback server answers each, and the tool must give one documented structuredContent.
 */
import { describe, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { normalisedData, useFakeUpstreamSession } from '../helpers/fake-session.js';
import { btcAsset, btcRecord, okStatus, T } from '../helpers/upstream-shapes.js';

const session = useFakeUpstreamSession({ SVC_TOOLSETS: 'all' });

async function structured(path: string, data: unknown, tool: string, args: Record<string, unknown>) {
  session.upstream.reply(path, { body: { status: okStatus, data } });
  const result = await session.mcp.call(tool, args);
  expect(result.isError, textOf(result)).toBeFalsy();
  return normalisedData(result.structuredContent);
}

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
    expect((movers.items as { quote: unknown[] }[])[0]!.quote).toEqual([
      { ...btcAsset.quote[0], percent_change_30d: 9.5 },
    ]);
    const fresh = await structured(
      '/v1/cryptocurrency/listings/new',
      [btcRecord],
      'get_new_cryptocurrencies',
      {},
    );
    expect((fresh.items as { date_added: string }[])[0]!.date_added).toBe('2013-04-28T00:00:00.000Z');
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
      // 7,526 pairs in all: the rest are another request.
      truncated: 'Rows 1–1; the service may have more: next asks it for them, a new request',
      next: { id: '1', start: 2, limit: 20 },
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
