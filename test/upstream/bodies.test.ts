/**
 * What the server does with upstream bodies that fit no documented shape (error results, never
 * crashes, and it keeps answering), and where the API key goes (only into the configured header).
 * A loopback server here plays the upstream for a server built in this process.
 */
import { describe, expect, it } from 'vitest';
import { firstText, textOf } from '../helpers/cli.js';
import { useFakeUpstreamSession } from '../helpers/fake-session.js';
import { startFakeUpstream } from '../helpers/fake-upstream.js';
import { startMcp } from '../helpers/in-process.js';
import { NOW } from '../helpers/now.js';
import { SECRET_KEY } from '../helpers/secret.js';
import { okStatus, specAssets, stringStatus } from '../helpers/upstream-shapes.js';

const LISTINGS = '/v3/cryptocurrency/listings/latest';
const QUOTES = '/v3/cryptocurrency/quotes/latest';

const session = useFakeUpstreamSession();

describe('bodies that fit no shape are error results, and the server keeps answering', () => {
  it.each([
    ['a truncated JSON body', '{"status":{"error_code":0},"data":{"value":5'],
    ['an HTML page', '<html><body>Bad gateway</body></html>'],
    ['an empty body', ''],
  ])('%s → isError saying it could not be read', async (_, body) => {
    session.upstream.reply('/v3/fear-and-greed/latest', { body });
    const result = await session.mcp.call('get_fear_and_greed_latest');
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result)).toMatch(/not valid JSON/i);
  });

  it.each([
    [
      'fear and greed latest with no value',
      '/v3/fear-and-greed/latest',
      'get_fear_and_greed_latest',
      {},
      { status: okStatus, data: { unexpected: true } },
    ],
    [
      'fear and greed latest with data null',
      '/v3/fear-and-greed/latest',
      'get_fear_and_greed_latest',
      {},
      { status: okStatus, data: null },
    ],
    [
      'listings with data a string',
      LISTINGS,
      'get_cryptocurrency_listings_latest',
      {},
      { status: okStatus, data: 'oops' },
    ],
    [
      'quotes whose quote is a number',
      QUOTES,
      'get_cryptocurrency_quotes_latest',
      { id: '1' },
      { status: okStatus, data: [{ ...specAssets[0], quote: 5 }] },
    ],
    [
      'DEX list as an object of nothing',
      '/v1/dex/platform/list',
      'list_dex_platforms',
      {},
      { status: stringStatus, data: { items: [] } },
    ],
    [
      'index latest without constituents',
      '/v3/index/svc100-latest',
      'get_svc100_index_latest',
      {},
      { status: stringStatus, data: { value: 1 } },
    ],
    ['a bare JSON number', '/v1/altcoin-season-index/latest', 'get_altcoin_season_index_latest', {}, 42],
  ])('200 with %s → isError naming the unexpected shape', async (_, path, tool, args, body) => {
    session.upstream.reply(path, { body });
    const result = await session.mcp.call(tool, args);
    expect(result.isError, textOf(result)).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result)).toMatch(/unexpected shape/i);
  });

  it('after all of that the process is alive and answers', async () => {
    session.upstream.reply('/v3/fear-and-greed/latest', {
      body: { status: okStatus, data: { value: 45, value_classification: 'Neutral', update_time: NOW } },
    });
    const result = await session.mcp.call('get_fear_and_greed_latest');
    expect(result.isError).toBeFalsy();
    expect(firstText(result).split('\n')[0]).toBe('Fear & Greed 45 – Neutral');
    expect(session.mcp.alive()).toBe(true);
  });
});

// ------------------------------------------------------------------ the key

describe('the API key', () => {
  it('arrives in the X-SVC_PRO_API_KEY header on every request and never in a URL', async () => {
    expect(session.upstream.requests.length).toBeGreaterThan(10);
    for (const request of session.upstream.requests) {
      expect(request.headers['x-svc_pro_api_key']).toBe(SECRET_KEY);
      expect(request.headers.accept).toBe('application/json');
      expect(request.url).not.toContain(SECRET_KEY);
      expect(decodeURIComponent(request.url)).not.toContain(SECRET_KEY);
    }
  });

  it('an upstream error message that echoes the key is passed on without it', async () => {
    session.upstream.reply('/v1/altcoin-season-index/latest', {
      status: 401,
      body: {
        status: {
          timestamp: NOW,
          error_code: 1001,
          error_message: `This API Key is invalid: ${SECRET_KEY}`,
          elapsed: 0,
          credit_count: 0,
        },
      },
    });
    const result = await session.mcp.call('get_altcoin_season_index_latest');
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toMatch(/1001/);
    expect(text).toMatch(/This API Key is invalid/);
    expect(text.includes(SECRET_KEY), 'the key is in the tool result').toBe(false);
  });

  it('SVC_API_KEY_HEADER renames the header; a base URL with a path prefix and a trailing slash works', async () => {
    const other = await startFakeUpstream();
    const session = await startMcp({
      SVC_API_KEY: SECRET_KEY,
      SVC_BASE_URL: `${other.url}/api/`,
      SVC_API_KEY_HEADER: 'X-Api-Key',
    });
    try {
      other.reply('/api/v3/fear-and-greed/latest', {
        body: { status: okStatus, data: { value: 30, value_classification: 'Fear', update_time: NOW } },
      });
      const result = await session.call('get_fear_and_greed_latest');
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(other.requests).toHaveLength(1);
      const [request] = other.requests;
      if (!request) throw new Error('no request reached the upstream');
      expect(request.path).toBe('/api/v3/fear-and-greed/latest');
      expect(request.headers['x-api-key']).toBe(SECRET_KEY);
      expect(request.headers['x-svc_pro_api_key']).toBeUndefined();
      expect(request.url).not.toContain(SECRET_KEY);
    } finally {
      await session.close();
      await other.close();
    }
  });
});
