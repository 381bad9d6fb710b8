/**
 * Arguments a model may send that once went out as multi-megabyte URLs or impossible dates: each is
 * refused before anything is sent, naming the parameter and what is allowed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { postMcp } from '../helpers/http.js';
import { openSession, startHttpServer, startMcp } from '../helpers/in-process.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import { SESSION_KINDS, type Session } from '../helpers/session.js';

let sandbox: Sandbox;
let mcp: Session;
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
  mcp = await startMcp(sandboxEnv(sandbox, 'sandbox-enterprise', { SVC_CACHE: 'off' }));
});
afterAll(async () => {
  await mcp?.close();
  await sandbox?.close();
});

async function refused(tool: string, args: Record<string, unknown>): Promise<string> {
  const before = sandbox.stats.requests;
  const result = await mcp.call(tool, args);
  expect(result.isError, textOf(result)).toBe(true);
  expect(sandbox.stats.requests).toBe(before);
  return textOf(result);
}

describe('lengths', () => {
  it('a 2 MB symbol', async () => {
    expect(await refused('get_cryptocurrency_quotes_latest', { symbol: 'B'.repeat(2_000_000) })).toMatch(
      /^Invalid value for "symbol": must be at most 1000 symbols of at most 20 characters each/,
    );
  });

  it('200,000 ids, and 1,001', async () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1).join(',');
    expect(await refused('get_cryptocurrency_quotes_latest', { id: ids(200_000) })).toMatch(
      /"id": must be at most 1000 numeric ids/,
    );
    expect(await refused('get_cryptocurrency_quotes_latest', { id: ids(1001) })).toMatch(
      /"id": must be at most 1000/,
    );
  });

  it('121 convert currencies, or one of 11 characters', async () => {
    const many = Array.from({ length: 121 }, () => 'USD').join(',');
    expect(await refused('get_global_metrics_latest', { convert: many })).toMatch(
      /"convert": .*at most 120 currencies/,
    );
    expect(await refused('get_global_metrics_latest', { convert: 'ABCDEFGHIJK' })).toMatch(
      /"convert": .*at most 10/,
    );
  });

  it('a currency named twice, in any letter case (each costs a credit, the answer holds it once)', async () => {
    expect(await refused('get_global_metrics_latest', { convert: 'USD,EUR,USD' })).toMatch(
      /^Invalid value for "convert": names USD twice; name each currency once/,
    );
    expect(await refused('get_global_metrics_latest', { convert: 'usd,Usd' })).toMatch(
      /"convert": names Usd twice/,
    );
    expect(await refused('get_global_metrics_latest', { convert_id: '2781,2790,2781' })).toMatch(
      /^Invalid value for "convert_id": names 2781 twice; name each currency once/,
    );
  });
});

describe('numbers out of range say the range, in words', () => {
  it.each<[string, Record<string, unknown>, RegExp]>([
    [
      'get_fear_and_greed_historical',
      { start: 1_000_001 },
      /^Invalid value for "start": 1000001 is out of range: a whole number from 1 to 1,000,000\.$/,
    ],
    [
      'get_fear_and_greed_historical',
      { limit: 1e300 },
      /^Invalid value for "limit": 1e\+300 is out of range: a whole number from 1 to 500\.$/,
    ],
    [
      'get_fear_and_greed_historical',
      { limit: 0 },
      /"limit": 0 is out of range: a whole number from 1 to 500\.$/,
    ],
  ])('%s %j', async (tool, args, says) => {
    expect(await refused(tool, args)).toMatch(says);
  });
});

describe('times: a real instant from 2010 to tomorrow', () => {
  it.each<[string | number, string, RegExp]>([
    ['2026-02-30T00:00:00Z', '30 February', /is not a date and time \(got "2026-02-30T00:00:00Z"\)/],
    ['2026-04-31', '31 April', /is not a date and time \(got "2026-04-31"\)/],
    ['2026-11-01T24:00:00Z', 'hour 24', /is not a date and time/],
    [1e15, 'far in the future', /is in the future \(1000000000000000\)/],
    [
      1262303999,
      'before 2010',
      /is before 2010-01-01 \(2009-12-31T23:59:59Z\), where the service's data begins/,
    ],
    [1.5e9 + 0.5, 'not whole seconds', /is not a date and time \(got "1500000000\.5"\)/],
    [
      '2126-01-01',
      'a century ahead',
      /is in the future \(2126-01-01T00:00:00Z\): the service has data up to now/,
    ],
  ])('%s (%s) is refused, saying why', async (value, _, why) => {
    const text = await refused('get_global_metrics_historical', { time_start: value });
    expect(text).toMatch(/^Invalid value for "time_start": /);
    expect(text).toMatch(why);
  });

  it('a leap day and an offset are real', async () => {
    const result = await mcp.call('get_global_metrics_historical', {
      time_start: '2024-02-29T10:00:00+05:30',
      time_end: '2024-03-01',
      interval: 'daily',
    });
    expect(result.isError, textOf(result)).toBeFalsy();
  });
});

describe('names', () => {
  it('__proto__ is an unknown parameter like any other', async () => {
    const text = await refused(
      'get_fear_and_greed_historical',
      JSON.parse('{"__proto__": {"limit": 1}, "limit": 5}'),
    );
    expect(text).toBe('Unknown parameter "__proto__"; this tool takes: start, limit, cursor, format.');
  });
});

describe('over HTTP', () => {
  it('__proto__ among the arguments is refused there too, and nothing is sent', async () => {
    const server = await startHttpServer(sandboxEnv(sandbox, 'sandbox-enterprise', { SVC_CACHE: 'off' }));
    try {
      const before = sandbox.stats.requests;
      const body =
        '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_fear_and_greed_historical","arguments":{"__proto__":{"limit":900},"limit":5}}}';
      const response = await postMcp(server.url, body, { 'mcp-protocol-version': '2025-06-18' });
      expect(response.status).toBe(200);
      expect(JSON.parse(response.text)).toEqual({
        jsonrpc: '2.0',
        id: 7,
        result: {
          content: [
            {
              type: 'text',
              text: 'Unknown parameter "__proto__"; this tool takes: start, limit, cursor, format.',
            },
          ],
          isError: true,
          _meta: { credits: 0 },
          resultType: 'complete',
        },
      });
      expect(sandbox.stats.requests).toBe(before);
    } finally {
      await server.stop();
    }
  });
});

describe.each(SESSION_KINDS)('__proto__ from the $client client over $transport', (kind) => {
  it('is the same refusal on every revision (a 2026-07-28 client takes it as a result, not a protocol error)', async () => {
    const session = await openSession(kind, sandboxEnv(sandbox, 'sandbox-enterprise', { SVC_CACHE: 'off' }));
    try {
      const before = sandbox.stats.requests;
      const result = await session.call(
        'get_fear_and_greed_historical',
        JSON.parse('{"__proto__": {"limit": 900}, "limit": 5}'),
      );
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        'Unknown parameter "__proto__"; this tool takes: start, limit, cursor, format.',
      );
      expect(sandbox.stats.requests).toBe(before);
    } finally {
      await session.close();
    }
  });
});
