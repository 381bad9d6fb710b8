/**
 * The listed cryptocurrency endpoints answer in several shapes (keyed by id, by symbol with a list
 * per symbol, one object; quotes keyed or listed; numbers as strings; ranks as <brand>_rank): a
 * loopback server answers each, and the tool must give one documented structuredContent.
 */
import { describe, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { normalisedData, useFakeUpstreamSession } from '../helpers/fake-session.js';
import { okStatus } from '../helpers/upstream-shapes.js';

const session = useFakeUpstreamSession({ SVC_TOOLSETS: 'all' });

async function structured(path: string, data: unknown, tool: string, args: Record<string, unknown>) {
  session.upstream.reply(path, { body: { status: okStatus, data } });
  const result = await session.mcp.call(tool, args);
  expect(result.isError, textOf(result)).toBeFalsy();
  return normalisedData(result.structuredContent);
}

import { btcAsset, btcRecord, T } from '../helpers/upstream-shapes.js';

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
    const periods = (out.items as { periods: Record<string, unknown>[] }[])[0]!.periods;
    expect(periods.map((p) => p.period)).toEqual(['yesterday', '7d']);
    expect(periods[0]).toMatchObject({ high_timestamp: null, low_timestamp: null });
    expect(periods[1]!.quote).toEqual([
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
    time_period: 'daily',
    interval: 'daily',
    items: [
      {
        id: 1,
        name: 'Bitcoin',
        symbol: 'BTC',
        quotes: [
          {
            time_open: '2026-11-21T00:00:00.000Z',
            time_close: '2026-11-21T23:59:59.999Z',
            complete: true,
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
          complete: false,
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
