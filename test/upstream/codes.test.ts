/**
 * Upstream error codes the sandbox never sends (docs/service.md, "Errors"), served by a loopback
 * server to a server built in this process: each is an error result that keeps the code and the upstream message,
 * says what to do, and is retried only where a retry can help.
 */
import { describe, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { normalisedData, useFakeUpstreamSession } from '../helpers/fake-session.js';
import { NOW } from '../helpers/now.js';
import { until } from '../helpers/until.js';
import { errorBody, okStatus } from '../helpers/upstream-shapes.js';

const session = useFakeUpstreamSession();

describe('upstream error codes: kept, explained, retried only where it helps', () => {
  const PATH = '/v1/altcoin-season-index/historical';
  const nextUtcDay = () => {
    const now = new Date();
    return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1))
      .toISOString()
      .slice(0, 10);
  };
  const nextUtcMonth = () => {
    const now = new Date();
    return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
  };

  it.each([
    [429, 1009, 'daily credit limit', () => `${nextUtcDay()} 00:00 UTC`],
    [429, 1010, 'monthly credit limit', () => `${nextUtcMonth()} 00:00 UTC`],
    [401, 1002, 'No API key was sent', () => 'SVC_API_KEY'],
    [402, 1003, 'activated', () => 'payment'],
    [402, 1004, 'expired', () => 'renew'],
    [403, 1007, 'disabled', () => 'disabled'],
    [400, 400, 'Fix the parameter', () => 'timeframe'],
  ])('HTTP %i / %i: one request, the code kept, advice (%s)', async (status, code, advice, detail) => {
    session.upstream.reply(PATH, {
      status,
      body: errorBody(String(code), `Upstream says no (timeframe): ${code}`),
    });
    const before = session.upstream.requests.length;
    const result = await session.mcp.call('get_altcoin_season_index_historical', { timeframe: '30d' });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    // A refused parameter is said in the service's own words alone: they name it.
    if (status === 400) expect(text).toMatch(/^Upstream says no/);
    else {
      expect(text).toContain(`HTTP ${status}`);
      expect(text).toContain(`error ${code}`);
    }
    expect(text).toContain(`Upstream says no (timeframe): ${code}`);
    expect(text).toContain(advice);
    expect(text).toContain(detail());
    expect(session.upstream.requests.length - before).toBe(1);
  });

  it('429 / 1011 (per-IP) with a short Retry-After is retried once it has passed', async () => {
    session.upstream.reply(PATH, {
      status: 429,
      body: errorBody(1011, 'IP rate limit'),
      headers: { 'retry-after': '1' },
    });
    const before = session.upstream.requests.length;
    const pending = session.mcp.call('get_altcoin_season_index_historical', { timeframe: '7d' });
    // The first attempt meets the 429; by the retry, a second later, the service answers.
    await until(() => session.upstream.requests.length > before);
    session.upstream.reply(PATH, {
      body: {
        status: okStatus,
        data: {
          timeframe: '7d',
          points: [{ timestamp: '1763769600', altcoin_index: '55', altcoin_marketcap: 1e12 }],
        },
      },
    });
    const result = await pending;
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(normalisedData(result.structuredContent)).toEqual({
      timeframe: '7d',
      points: [
        { timestamp: new Date(1_763_769_600_000).toISOString(), altcoin_index: 55, altcoin_marketcap: 1e12 },
      ],
    });
    expect(session.upstream.requests.length - before).toBe(2);
  });

  it('a 503 HTML page from a proxy: retried, then an error result keeping the status', async () => {
    session.upstream.reply(PATH, {
      status: 503,
      body: '<html>Service Unavailable</html>',
      headers: { 'content-type': 'text/html' },
    });
    const before = session.upstream.requests.length;
    const result = await session.mcp.call('get_altcoin_season_index_historical', { timeframe: '90d' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/HTTP 503/);
    expect(session.upstream.requests.length - before).toBeGreaterThan(1);
  });

  it('a 403 whose error_code is the string "1006" keeps the code and names the plans', async () => {
    session.upstream.reply('/v1/community/trending/token', {
      status: 403,
      body: {
        status: {
          timestamp: NOW,
          error_code: '1006',
          error_message: "Your API Key subscription plan doesn't support this endpoint.",
          elapsed: '1',
          credit_count: 0,
        },
      },
    });
    const result = await session.mcp.call('get_trending_community_tokens', { limit: 3 });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain('1006');
    expect(text).toContain("Your API Key subscription plan doesn't support this endpoint.");
    expect(text).toMatch(/Standard, Professional, Enterprise/);
  });
});
