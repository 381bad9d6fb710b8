/**
 * The price quoted before a call is the price it is charged: estimate_cost and the confirmation
 * question price the whole of what the call asks for, as it will be sent (one request), run the same
 * argument check as the call, and count a request the plan repeats once while the cache would answer
 * the rest. Where the service returns fewer records than were asked for, the estimate is the most
 * the call can cost and the charge is what the service reports.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { type InProcessSession, openInProcess } from '../helpers/in-process.js';
import { heavyCallsEnv, type Sandbox, startTestSandbox } from '../helpers/sandbox.js';

interface Planned {
  tool: string;
  credits?: number;
  cached?: boolean;
  error?: string;
}
interface Estimate {
  calls: Planned[];
  total: number;
}

/** Calls the sandbox answers in full, whose estimate is checked against what the call is charged. */
const CALLS: [string, Record<string, unknown>][] = [
  ['get_cryptocurrency_listings_latest', { limit: 200 }],
  ['get_cryptocurrency_listings_latest', { limit: 231, convert: 'USD,EUR' }],
  ['get_global_metrics_historical', { count: 5000, interval: '1h', format: 'json' }],
  ['get_market_pairs', { id: '1', limit: 100 }],
  ['get_ohlcv_historical', { symbol: 'BTC,ETH', count: 2000 }],
];

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
});
afterAll(() => sandbox?.close());
const env = (extra: Record<string, string> = {}) => heavyCallsEnv(sandbox, extra);

async function estimate(session: InProcessSession, calls: unknown[]): Promise<Estimate> {
  const result = await session.call('estimate_cost', { calls });
  expect(result.isError, textOf(result)).toBeFalsy();
  return result.structuredContent as unknown as Estimate;
}

describe('estimate_cost', () => {
  let session: InProcessSession;
  beforeAll(async () => {
    session = await openInProcess(env({ SVC_CACHE: 'off' }));
  });
  afterAll(() => session?.close());

  it.each(CALLS)('%s %j: the estimate is what the call is charged', async (tool, args) => {
    const priced = await estimate(session, [{ tool, arguments: args }]);
    const result = await session.call(tool, args);
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(priced.calls[0]!.credits).toBe((result._meta as { credits: number }).credits);
  });

  it('asked for more rows than the service has: estimated at what was asked, charged for what came', async () => {
    const priced = await estimate(session, [
      { tool: 'get_cryptocurrency_listings_latest', arguments: { limit: 450 } },
    ]);
    const result = await session.call('get_cryptocurrency_listings_latest', { limit: 450 });
    expect(priced.calls[0]!.credits).toBe(3);
    expect(result._meta?.credits).toBe(2);
  });

  it('a planned call with __proto__ among its arguments is refused, as the call is', async () => {
    const args = JSON.parse('{"__proto__":{"limit":5}}');
    const call = await session.call('get_cryptocurrency_listings_latest', args);
    expect(call.isError).toBe(true);
    expect(textOf(call)).toMatch(/^Unknown parameter "__proto__"/);
    const plan = JSON.parse(
      '{"calls":[{"tool":"get_cryptocurrency_listings_latest","arguments":{"__proto__":{"limit":5}}}]}',
    );
    const priced = await session.call('estimate_cost', plan);
    expect(priced.isError).toBe(true);
    expect(textOf(priced)).toMatch(/^Unknown member "__proto__" in "calls", at calls\[0\]\.arguments/);
  });

  it('fifty identical planned calls print once, with their count', async () => {
    const fifty = Array.from({ length: 50 }, () => ({ tool: 'get_fear_and_greed_latest' }));
    const result = await session.call('estimate_cost', { calls: fifty });
    const text = textOf(result);
    expect(text.split('\n')[0]).toBe('50 planned calls: 50 credits in all.');
    expect(text).toContain('get_fear_and_greed_latest | 50 | 50');
    expect(text.match(/get_fear_and_greed_latest/g)).toHaveLength(1);
  });
});

describe('with the cache on', () => {
  it('a request the plan repeats is priced once: the cache answers the rest', async () => {
    const session = await openInProcess(env());
    try {
      const fifty = Array.from({ length: 50 }, () => ({
        tool: 'get_cryptocurrency_listings_latest',
        arguments: { limit: 100 },
      }));
      const priced = await estimate(session, fifty);
      expect(priced.total).toBe(1);
      expect(priced.calls.slice(1).every((c) => c.cached)).toBe(true);
      let charged = 0;
      for (const planned of fifty) {
        const result = await session.call(planned.tool, planned.arguments);
        charged += (result._meta as { credits: number }).credits;
      }
      expect(charged).toBe(priced.total);
    } finally {
      await session.close();
    }
  });
});

describe('the confirmation question', () => {
  it('names the price the call is then charged', async () => {
    const questions: string[] = [];
    const session = await openInProcess(env({ SVC_CONFIRM_CREDITS: '1', SVC_CACHE: 'off' }), 'sdk1', (q) => {
      questions.push(q);
      return { action: 'accept', content: { confirm: true } };
    });
    try {
      const result = await session.call('get_cryptocurrency_listings_latest', { limit: 200 });
      const charged = (result._meta as { credits: number }).credits;
      expect(questions).toHaveLength(1);
      expect(questions[0]).toContain(`estimated at ${charged} credit${charged === 1 ? '' : 's'}.`);
    } finally {
      await session.close();
    }
  });
});
