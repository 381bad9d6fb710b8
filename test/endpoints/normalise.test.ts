/**
 * The real service answers in shapes the spec does not describe (docs/service.md, "Answers"). A loopback
 * server here answers those shapes to a server built in this process (pointed at it with a key and a base URL), and
 * every tool must give the one documented structuredContent whatever shape arrived; bodies that fit
 * no shape are tested in upstream-bodies.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { firstText, textOf } from '../helpers/cli.js';
import { normalisedData, useFakeUpstreamSession } from '../helpers/fake-session.js';
import {
  constituentsExpected,
  constituentsUpstream,
  expectedAssets,
  okStatus,
  pastConstituentsExpected,
  platformExpected,
  platformUpstream,
  realListingsAssets,
  solanaExpected,
  solanaUpstream,
  specAssets,
  stringStatus,
} from '../helpers/upstream-shapes.js';

const session = useFakeUpstreamSession();

/** Serve `body` on `path`, call the tool, and give back the result (which must not be an error). */
async function structured(path: string, body: unknown, tool: string, args: Record<string, unknown> = {}) {
  session.upstream.reply(path, { body });
  const result = await session.mcp.call(tool, args);
  expect(result.isError, textOf(result)).toBeFalsy();
  expect(textOf(result)).not.toContain('sandbox data');
  return normalisedData(result.structuredContent);
}

// ------------------------------------------------------------------ listings and quotes

const LISTINGS = '/v3/cryptocurrency/listings/latest';
const QUOTES = '/v3/cryptocurrency/quotes/latest';

describe('cryptocurrency listings and quotes', () => {
  it('listings: the spec form (keyed quote, svc_rank) gives the documented shape', async () => {
    const data = await structured(
      LISTINGS,
      { status: okStatus, data: specAssets },
      'get_cryptocurrency_listings_latest',
      {
        limit: 3,
        convert: 'USD,EUR',
      },
    );
    expect(data).toEqual({ start: 1, items: expectedAssets });
  });

  it('listings: the real v3 form (quote array, cmc_rank, string tags, error_code "0") gives the same shape', async () => {
    const data = await structured(
      LISTINGS,
      { status: { ...okStatus, error_code: '0', elapsed: '12' }, data: realListingsAssets },
      'get_cryptocurrency_listings_latest',
      { start: 1, limit: 3, convert: 'USD,EUR' },
    );
    expect(data).toEqual({ start: 1, items: expectedAssets });
  });

  it('quotes: the real v3 form (quote array, tags as objects) gives the documented shape', async () => {
    const realQuotes = realListingsAssets.map((asset) => ({
      ...asset,
      tags: [{ slug: 'mineable', name: 'Mineable', category: 'OTHERS' }],
      is_active: 1,
    }));
    const data = await structured(
      QUOTES,
      { status: okStatus, data: realQuotes },
      'get_cryptocurrency_quotes_latest',
      {
        id: '1,1027',
        convert: 'USD,EUR',
      },
    );
    expect(data).toEqual({ items: expectedAssets });
  });

  it('quotes: the spec form gives the same shape', async () => {
    const data = await structured(
      QUOTES,
      { status: okStatus, data: specAssets },
      'get_cryptocurrency_quotes_latest',
      {
        slug: 'bitcoin,ethereum',
        convert: 'USD,EUR',
      },
    );
    expect(data).toEqual({ items: expectedAssets });
  });

  it('quotes: the v2 form (data keyed by symbol, an array per symbol) gives the same shape', async () => {
    const [btc, eth] = specAssets;
    const data = await structured(
      QUOTES,
      { status: okStatus, data: { BTC: [btc], ETH: [eth] } },
      'get_cryptocurrency_quotes_latest',
      { symbol: 'BTC,ETH', convert: 'USD,EUR' },
    );
    expect(data).toEqual({ items: expectedAssets });
  });
});

// ------------------------------------------------------------------ status quirks: indices

describe('index endpoints: error_code "0", elapsed as a string, timestamps without milliseconds', () => {
  const latestBody = {
    value: '1234.56',
    value_24h_percentage_change: -1.5,
    last_update: '2026-11-22T11:55:00Z',
    next_update: '2026-11-22T12:00:00Z',
    constituents: constituentsUpstream,
  };
  const expected = {
    index: 'svc20',
    value: 1234.56,
    value_24h_percentage_change: -1.5,
    last_update: '2026-11-22T11:55:00Z',
    next_update: '2026-11-22T12:00:00Z',
    constituents: constituentsExpected,
  };

  it('svc20 latest with a string status', async () => {
    const data = await structured(
      '/v3/index/svc20-latest',
      { status: { ...stringStatus, error_message: '', credit_count: 1, total_count: 2 }, data: latestBody },
      'get_svc20_index_latest',
    );
    expect(data).toEqual(expected);
  });

  it('svc20 latest with an integer status gives the same shape', async () => {
    const data = await structured(
      '/v3/index/svc20-latest',
      { status: { ...okStatus, total_count: 2 }, data: latestBody },
      'get_svc20_index_latest',
      { format: 'json' },
    );
    expect(data).toEqual(expected);
  });

  it('svc100 historical: newest-first items come back oldest first', async () => {
    const item = (t: string, value: number) => ({
      update_time: t,
      value,
      constituents: constituentsUpstream,
    });
    const data = await structured(
      '/v3/index/svc100-historical',
      {
        status: { ...stringStatus, credit_count: 1, total_count: 2 },
        data: [item('2026-11-22T00:00:00Z', 1200), item('2026-11-21T00:00:00Z', 1100)],
      },
      'get_svc100_index_historical',
      { count: 2 },
    );
    expect(data).toEqual({
      index: 'svc100',
      interval: 'daily',
      items: [
        { update_time: '2026-11-21T00:00:00Z', value: 1100, constituents: pastConstituentsExpected },
        { update_time: '2026-11-22T00:00:00Z', value: 1200, constituents: pastConstituentsExpected },
      ],
    });
  });
});

// ------------------------------------------------------------------ community

describe('community', () => {
  const TOPIC = '/v1/community/trending/topic';
  const TOKEN = '/v1/community/trending/token';

  it('a topic answered as a single object (the documented sample) becomes a list', async () => {
    const data = await structured(
      TOPIC,
      { status: stringStatus, data: { rank: '1', topic: 'Bitcoin ETF inflows' } },
      'get_trending_community_topics',
      { limit: 1 },
    );
    expect(data).toEqual({ items: [{ rank: 1, topic: 'Bitcoin ETF inflows' }] });
  });

  it('topics answered as a list keep the list, in rank order', async () => {
    const data = await structured(
      TOPIC,
      {
        status: stringStatus,
        data: [
          { rank: 2, topic: 'Layer 2 fees' },
          { rank: 1, topic: 'Bitcoin ETF inflows' },
        ],
      },
      'get_trending_community_topics',
      { limit: 2 },
    );
    expect(data).toEqual({
      items: [
        { rank: 1, topic: 'Bitcoin ETF inflows' },
        { rank: 2, topic: 'Layer 2 fees' },
      ],
    });
  });

  it('trending tokens: cmc_rank (the real key) and svc_rank (the spec key) both become market_cap_rank', async () => {
    const expected = {
      items: [
        { rank: 1, id: 1027, name: 'Ethereum', symbol: 'ETH', slug: 'ethereum', market_cap_rank: 2 },
        { rank: 2, id: 1, name: 'Bitcoin', symbol: 'BTC', slug: 'bitcoin', market_cap_rank: 1 },
      ],
    };
    const real = await structured(
      TOKEN,
      {
        status: stringStatus,
        data: [
          { id: 1, name: 'Bitcoin', symbol: 'BTC', slug: 'bitcoin', cmc_rank: 1, rank: 2 },
          { id: 1027, name: 'Ethereum', symbol: 'ETH', slug: 'ethereum', cmc_rank: 2, rank: 1 },
        ],
      },
      'get_trending_community_tokens',
      { limit: 2 },
    );
    expect(real).toEqual(expected);
    // The spec lets community tokens omit the status object.
    const spec = await structured(
      TOKEN,
      {
        data: [
          { id: 1027, name: 'Ethereum', symbol: 'ETH', slug: 'ethereum', svc_rank: 2, rank: 1 },
          { id: 1, name: 'Bitcoin', symbol: 'BTC', slug: 'bitcoin', svc_rank: 1, rank: 2 },
        ],
      },
      'get_trending_community_tokens',
      { limit: 2, format: 'json' },
    );
    expect(spec).toEqual(expected);
  });
});

// ------------------------------------------------------------------ DEX platforms

describe('DEX platforms, bare (documented) and wrapped in {data, status} (observed)', () => {
  const LIST = '/v1/dex/platform/list';
  const DETAIL = '/v1/dex/platform/detail';
  const listExpected = { items: [platformExpected, solanaExpected] };

  it('list, bare array', async () => {
    expect(await structured(LIST, [platformUpstream, solanaUpstream], 'list_dex_platforms')).toEqual(
      listExpected,
    );
  });

  it('list, wrapped', async () => {
    const body = { data: [platformUpstream, solanaUpstream], status: stringStatus };
    expect(await structured(LIST, body, 'list_dex_platforms', { format: 'json' })).toEqual(listExpected);
  });

  it('detail, bare object', async () => {
    expect(
      await structured(DETAIL, platformUpstream, 'get_dex_platform', { platformName: 'Ethereum' }),
    ).toEqual(platformExpected);
  });

  it('detail, wrapped', async () => {
    const body = { data: platformUpstream, status: { ...okStatus, credit_count: 1 } };
    expect(
      await structured(DETAIL, body, 'get_dex_platform', { platformName: 'Ethereum', format: 'json' }),
    ).toEqual(platformExpected);
  });

  it('detail of a platform of one DEX counts it as one', async () => {
    session.upstream.reply(DETAIL, { body: { ...platformUpstream, dn: 1 } });
    const result = await session.mcp.call('get_dex_platform', { platformName: 'Ethereum' });
    expect(firstText(result)).toMatch(/^Ethereum \(ETH\): 1 DEX, platform id 1/);
  });

  it('the platform name is sent as the platformName query parameter', async () => {
    session.upstream.reply(DETAIL, { body: platformUpstream });
    await session.mcp.call('get_dex_platform', { platformName: 'BNB Smart Chain' });
    const last = session.upstream.requests.at(-1);
    expect(last?.path).toBe(DETAIL);
    expect(new URL(last?.url ?? '', 'http://x').searchParams.get('platformName')).toBe('BNB Smart Chain');
  });
});

// ------------------------------------------------------------------ fear and greed

describe('fear and greed', () => {
  it('historical timestamps as Unix-second strings become ISO 8601, newest first kept', async () => {
    const data = await structured(
      '/v3/fear-and-greed/historical',
      {
        status: okStatus,
        data: [
          { timestamp: '1763769600', value: 62, value_classification: 'Greed' },
          { timestamp: '1763683200', value: '19', value_classification: 'Extreme Fear' },
        ],
      },
      'get_fear_and_greed_historical',
      { limit: 3 },
    );
    expect(data).toEqual({
      start: 1,
      items: [
        { timestamp: new Date(1_763_769_600_000).toISOString(), value: 62, value_classification: 'Greed' },
        {
          timestamp: new Date(1_763_683_200_000).toISOString(),
          value: 19,
          value_classification: 'Extreme Fear',
        },
      ],
    });
    expect((data as { items: { timestamp: string }[] }).items[0]!.timestamp).toMatch(
      /^2025-11-22T00:00:00(\.000)?Z$/,
    );
  });

  it('a latest value without its label gets the band label', async () => {
    const data = await structured(
      '/v3/fear-and-greed/latest',
      { status: okStatus, data: { value: 80, update_time: '2026-11-22T11:45:00.000Z' } },
      'get_fear_and_greed_latest',
    );
    expect(data).toEqual({
      value: 80,
      value_classification: 'Extreme Greed',
      update_time: '2026-11-22T11:45:00.000Z',
    });
    const result = await session.mcp.call('get_fear_and_greed_latest');
    expect(firstText(result).split('\n')[0]).toBe('Fear & Greed 80 – Extreme Greed');
  });
});

// ------------------------------------------------------------------ bodies that fit no shape
