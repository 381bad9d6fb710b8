/**
 * Content, k-line and utility endpoints in the shapes documentation and observed answers use: posts
 * with counts as strings and times in milliseconds, k-line rows bare or wrapped (seconds or
 * milliseconds), price conversion as one object or a list. A loopback server answers each; the
 * tool must give one documented structuredContent.
 */
import { describe, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { normalisedData, useFakeUpstreamSession } from '../helpers/fake-session.js';
import { okStatus, stringStatus } from '../helpers/upstream-shapes.js';

const session = useFakeUpstreamSession({ SVC_TOOLSETS: 'all' });

async function structured(path: string, body: unknown, tool: string, args: Record<string, unknown> = {}) {
  session.upstream.reply(path, { body });
  const result = await session.mcp.call(tool, args);
  expect(result.isError, textOf(result)).toBeFalsy();
  return normalisedData(result.structuredContent);
}

const CHART = { platform: 'solana', address: 'So11111111111111111111111111111111111111112' };

describe('content', () => {
  const post = {
    post_id: '123456789',
    comments_url: '{{baseUrl}}/v1/content/posts/comments?post_id=123456789',
    owner: { nickname: 'Amy', avatar_url: 'https://example.test/a.png' },
    text_content: '$ETH looks strong',
    photos: [],
    comment_count: '5',
    like_count: '12',
    post_time: '1662643031298',
    currencies: [{ id: 1027, symbol: 'ETH', slug: 'ethereum' }],
    language_code: 'en',
  };
  const expectedPost = {
    post_id: '123456789',
    owner: { nickname: 'Amy', avatar_url: 'https://example.test/a.png' },
    text_content: '$ETH looks strong',
    photos: [],
    comment_count: 5,
    like_count: 12,
    post_time: '2022-09-08T13:17:11.298Z',
    currencies: [{ id: 1027, symbol: 'ETH', slug: 'ethereum' }],
    language_code: 'en',
  };

  it('latest posts: {list, last_score} with string counts, millisecond times, repost_count sometimes absent; no status block either', async () => {
    const data = { list: [post, { ...post, post_id: '2', repost_count: '3' }], last_score: '1662643031298' };
    const expected = {
      last_score: '1662643031298',
      items: [expectedPost, { ...expectedPost, post_id: '2', repost_count: 3 }],
    };
    expect(
      await structured('/v1/content/posts/latest', { data, status: okStatus }, 'get_latest_posts'),
    ).toEqual(expected);
    // The documented sample of this endpoint has no status block.
    expect(await structured('/v1/content/posts/latest', { data }, 'get_latest_posts')).toEqual(expected);
  });

  it('top posts: a score as the cursor; SUCCESS as the status message', async () => {
    const body = {
      data: { list: [post], last_score: '38507.8865' },
      status: { ...stringStatus, error_code: 0 },
    };
    expect(await structured('/v1/content/posts/top', body, 'get_top_posts')).toEqual({
      last_score: '38507.8865',
      items: [expectedPost],
    });
  });

  it('comments: a list with string counts and millisecond times', async () => {
    const comment = {
      post_id: '317807035',
      owner: { nickname: 'Bo' },
      text_content: 'Agreed',
      photos: [],
      comment_count: '0',
      like_count: '2',
      post_time: '1662640110429',
      language_code: 'en',
    };
    expect(
      await structured(
        '/v1/content/posts/comments',
        { data: [comment], status: okStatus },
        'get_post_comments',
        { post_id: '1' },
      ),
    ).toEqual({
      post_id: '1',
      items: [
        {
          owner: { nickname: 'Bo' },
          text_content: 'Agreed',
          photos: [],
          comment_count: 0,
          like_count: 2,
          post_time: '2022-09-08T12:28:30.429Z',
          language_code: 'en',
        },
      ],
    });
  });

  it('latest content: a list of pieces with the assets they are about', async () => {
    const piece = {
      cover: 'https://example.test/c.gif',
      assets: [{ id: 1027, name: 'Ethereum', symbol: 'ETH', slug: 'ethereum' }],
      created_at: '2021-05-05T00:00:00Z',
      released_at: '2021-05-05T00:00:00Z',
      title: 'Merge',
      subtitle: 'Soon',
      type: 'alexandria',
      source_name: 'A',
      source_url: 'https://example.test/m',
    };
    const out = await structured(
      '/v1/content/latest',
      { data: [piece], status: { ...okStatus, credit_count: 1 } },
      'get_latest_content',
    );
    expect(out).toEqual({ start: 1, items: [piece] });
  });
});

describe('k-line', () => {
  const expected = {
    ...CHART,
    candles: [
      {
        time: '2024-01-16T00:00:00.000Z',
        complete: true,
        open: 1.23,
        high: 1.45,
        low: 1.2,
        close: 1.4,
        volume: 50000,
        traders: 128,
      },
      {
        time: '2024-01-16T01:00:00.000Z',
        complete: true,
        open: 1.4,
        high: 1.5,
        low: 1.3,
        close: 1.35,
        volume: 4000,
        traders: null,
      },
    ],
  };
  const rows = [
    [1.4, 1.5, 1.3, 1.35, 4000, 1705366800, null],
    [1.23, 1.45, 1.2, 1.4, 50000, 1705363200, 128],
  ];

  it('candles: documented bare rows and the observed {data, status} give the same candles, oldest first', async () => {
    expect(await structured('/v1/k-line/candles', rows, 'get_kline_candles', CHART)).toEqual(expected);
    expect(
      await structured('/v1/k-line/candles', { data: rows, status: okStatus }, 'get_kline_candles', CHART),
    ).toEqual(expected);
  });

  it('candles: millisecond timestamps and numbers as strings read the same', async () => {
    const ms = rows.map((r) =>
      r.map((v, k) => (k === 5 ? (v as number) * 1000 : typeof v === 'number' ? String(v) : v)),
    );
    expect(await structured('/v1/k-line/candles', { data: ms }, 'get_kline_candles', CHART)).toEqual(
      expected,
    );
  });

  it('points: [value, volume, time], a market-cap series with pm=m', async () => {
    const out = await structured('/v1/k-line/points', [[2.5e9, 100, 1705363200]], 'get_kline_points', {
      ...CHART,
      pm: 'm',
    });
    expect(out).toEqual({
      ...CHART,
      series: 'market_cap',
      points: [{ time: '2024-01-16T00:00:00.000Z', value: 2.5e9, volume: 100 }],
    });
  });
});

describe('utilities', () => {
  const conversion = {
    id: 1,
    symbol: 'BTC',
    name: 'Bitcoin',
    amount: 50,
    last_updated: '2018-06-06T08:04:36.000Z',
    quote: { USD: { price: 284656.08, last_updated: '2018-06-06T06:00:00.000Z' } },
  };
  const expectedItem = {
    ...conversion,
    quote: [{ currency: 'USD', price: 284656.08, last_updated: '2018-06-06T06:00:00.000Z' }],
  };

  it('price conversion: one object by id, a list by symbol', async () => {
    expect(
      await structured(
        '/v2/tools/price-conversion',
        { data: conversion, status: okStatus },
        'convert_price',
        { amount: 50, id: '1' },
      ),
    ).toEqual({ items: [expectedItem] });
    const shared = { ...conversion, id: 9999, name: 'Other BTC' };
    const both = await structured(
      '/v2/tools/price-conversion',
      { data: [conversion, shared], status: okStatus },
      'convert_price',
      { amount: 50, symbol: 'BTC' },
    );
    expect(both.items).toEqual([expectedItem, { ...expectedItem, id: 9999, name: 'Other BTC' }]);
    const text = textOf(await session.mcp.call('convert_price', { amount: 50, symbol: 'BTC' }));
    expect(text).toContain('2 assets share that symbol; send id to pick one.');
  });

  it('fiat map: a list; metals too', async () => {
    const data = [
      { id: 2781, name: 'United States Dollar', sign: '$', symbol: 'USD' },
      { id: 3575, name: 'Gold Troy Ounce', symbol: 'XAU', code: 'XAU' },
    ];
    expect(await structured('/v1/fiat/map', { data, status: okStatus }, 'get_fiat_map')).toEqual({
      items: [
        { id: 2781, name: 'United States Dollar', sign: '$', symbol: 'USD' },
        { id: 3575, name: 'Gold Troy Ounce', symbol: 'XAU' },
      ],
    });
  });
});
