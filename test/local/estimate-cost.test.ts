/**
 * estimate_cost: planned calls priced as the guard prices them, checked as real calls are checked,
 * with nothing sent to the service; the same figures and refusals the real calls then meet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { startMcp } from '../helpers/in-process.js';
import { NOW } from '../helpers/now.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import type { Session } from '../helpers/session.js';

const SCRIPT_NOTE =
  'At most: what its calls may spend (max_credits, else the per-call limit); a call answered from the cache or the kept tables costs nothing.';

interface Row {
  tool: string;
  credits?: number;
  cached?: boolean;
  plans?: string;
  plan_has?: boolean | null;
  within_limit?: boolean;
  note?: string;
  error?: string;
}
interface Estimate {
  calls: Row[];
  total: number;
  budget: number | null;
  left: number | null;
  fits: boolean | null;
}

const PLAN = [
  { tool: 'get_fear_and_greed_latest' },
  { tool: 'get_cryptocurrency_listings_latest', arguments: { limit: 600 } },
  { tool: 'get_global_metrics_latest', arguments: { convert: 'USD,EUR,GBP,JPY,CNY,INR' } },
  { tool: 'get_cryptocurrency_quotes_latest', arguments: {} },
  { tool: 'get_fear_greed', arguments: {} },
  { tool: 'get_trending_community_tokens', arguments: { limit: 9 } },
  { tool: 'search_cryptocurrencies', arguments: { query: 'bit' } },
];

let sandbox: Sandbox;
let mcp: Session;
const requests = () => sandbox.stats.requests;
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
  mcp = await startMcp(
    sandboxEnv(sandbox, 'sandbox-enterprise', {
      SVC_NOW: NOW,
      SVC_CREDIT_BUDGET: '100',
      SVC_MAX_CREDITS_PER_CALL: '4',
      SVC_PLAN: 'standard',
    }),
  );
});
afterAll(async () => {
  await mcp?.close();
  await sandbox?.close();
});

async function estimate(calls: unknown[]): Promise<Estimate> {
  const result = await mcp.call('estimate_cost', { calls });
  expect(result.isError, textOf(result)).toBeFalsy();
  expect(result._meta).toMatchObject({ credits: 0 });
  return result.structuredContent as unknown as Estimate;
}

describe('estimate_cost', () => {
  it('prices each planned call and sends nothing', async () => {
    const before = requests();
    const priced = await estimate(PLAN);
    expect(requests()).toBe(before);
    const [fng, listings, heavy, quotes, unknown, community, search] = priced.calls;
    expect(fng).toMatchObject({
      credits: 1,
      cached: false,
      plans: 'all',
      plan_has: true,
      within_limit: true,
    });
    // 600 rows are one request, 3 credits, answered a page at a time.
    expect(listings).toMatchObject({ credits: 3, cached: false, within_limit: true });
    expect(listings?.note).toMatch(/^One request for all of it; its answer makes about \d+ pages of JSON/);
    expect(heavy).toMatchObject({ credits: 6, within_limit: false });
    expect(heavy?.note).toMatch(/convert/);
    expect(community).toMatchObject({ error: expect.stringContaining('"limit"') });
    expect(search).toMatchObject({ credits: 0, within_limit: true });
    expect(quotes?.error).toBe('Missing parameter: one of "id", "slug" or "symbol" is required.');
    expect(unknown?.error).toMatch(/^Unknown tool "get_fear_greed"\. Did you mean get_fear_and_greed_latest/);
    // What would be sent: fear and greed and the first listings (the heavy one is refused).
    expect(priced).toMatchObject({ total: 4, budget: 100, left: 100, fits: true });
  });

  it("the refusals are the real calls' own, and a call that is then made is answered from the cache", async () => {
    const priced = await estimate(PLAN);
    for (const [i, planned] of PLAN.entries()) {
      const row = priced.calls[i]!;
      if (row.error === undefined && row.within_limit !== false) continue;
      const real = await mcp.call(planned.tool, planned.arguments ?? {});
      expect(real.isError, planned.tool).toBe(true);
      if (row.error !== undefined) expect(textOf(real)).toContain(row.error.slice(0, 60));
      else
        expect(textOf(real)).toContain(`estimated at ${row.credits} credits, over the limit of 4 per call`);
    }
    const first = await mcp.call('get_fear_and_greed_latest');
    expect(first._meta).toMatchObject({ credits: 1 });
    const again = await estimate([{ tool: 'get_fear_and_greed_latest' }]);
    expect(again.calls[0]).toMatchObject({ credits: 1, cached: true });
    expect(again).toMatchObject({ total: 0, left: 99, fits: true });
  });

  it('says when the plan does not fit what is left, and bounds the plan', async () => {
    // Fifty pages of their own (a repeated one would be answered from the cache), 3 credits each.
    const many = Array.from({ length: 50 }, (_, i) => ({
      tool: 'get_cryptocurrency_listings_latest',
      arguments: { start: i + 1, limit: 100, convert: 'USD,EUR,GBP' },
    }));
    const priced = await estimate(many);
    expect(priced.total).toBe(150);
    expect(priced.fits).toBe(false);
    const tooMany = await mcp.call('estimate_cost', { calls: [...many, many[0]] });
    expect(tooMany.isError).toBe(true);
    expect(textOf(tooMany)).toMatch(/"calls"/);
  });

  it('a malformed planned call is named by its place in the plan', async () => {
    const refusal = async (calls: unknown) => {
      const result = await mcp.call('estimate_cost', { calls });
      expect(result.isError).toBe(true);
      return textOf(result);
    };
    expect(await refusal([{ tool: 'get_fear_and_greed_latest' }, { tool: 'x', extra: 1 }])).toBe(
      'Unknown member "extra" in "calls", at calls[1]; it takes: tool, arguments.',
    );
    expect(await refusal([{ tool: 'get_fear_and_greed_latest', arguments: 'x' }])).toMatch(
      /^Invalid value in "calls", at calls\[0\]\.arguments: must be an object, not text \("x"\)\.$/,
    );
  });
});

describe('a call over the per-call limit, as a person would plan it', () => {
  const YEAR = {
    symbol: 'ETH',
    time_period: 'hourly',
    time_start: '2025-11-22T12:00:00Z',
    time_end: '2026-11-22T12:00:00Z',
  };
  const TEN = {
    symbol: 'BTC,ETH,SOL,XRP,DOGE,ADA,BNB,TRX,LINK,AVAX',
    time_period: 'hourly',
    time_start: '2026-10-22T12:00:00Z',
    time_end: '2026-11-21T12:00:00Z',
  };
  type Candles = { items: { symbol: string; quotes: { time_open: string }[] }[] };
  let limited: Session;
  let unlimited: Session;
  beforeAll(async () => {
    // The default per-call limit (25), and one no call here passes.
    limited = await startMcp(sandboxEnv(sandbox, 'sandbox-enterprise', { SVC_NOW: NOW, SVC_CACHE: 'off' }));
    unlimited = await startMcp(
      sandboxEnv(sandbox, 'sandbox-enterprise', {
        SVC_NOW: NOW,
        SVC_CACHE: 'off',
        SVC_MAX_CREDITS_PER_CALL: '1000',
      }),
    );
  });
  afterAll(async () => {
    await limited?.close();
    await unlimited?.close();
  });

  /** Every candle of an answer, walked a JSON page at a time, and what the call was charged. */
  async function candles(session: Session, args: Record<string, unknown>) {
    const seen: string[] = [];
    let credits = 0;
    let next: Record<string, unknown> | undefined = { ...args, format: 'json' };
    while (next !== undefined) {
      const result = await session.call('get_ohlcv_historical', next);
      expect(result.isError, textOf(result)).toBeFalsy();
      credits += Number(result._meta?.credits);
      const data = result.structuredContent as Candles & { next?: Record<string, unknown> };
      for (const a of data.items) for (const q of a.quotes) seen.push(`${a.symbol} ${q.time_open}`);
      next = data.next?.cursor === undefined ? undefined : data.next;
    }
    return { seen, credits };
  }

  it('a call over the limit with no plan that fits says so in its row, its figures grouped', async () => {
    const result = await limited.call('estimate_cost', {
      calls: [{ tool: 'run_script', arguments: { code: 'return 1', max_credits: 1e15 } }],
    });
    const text = textOf(result);
    expect(text).toContain(
      `run_script | 1,000,000,000,000,000 | over the limit of 25 per call. ${SCRIPT_NOTE}\n`,
    );
    expect(text).not.toContain('undefined');
  });

  it('a plan of no calls, or of too many, is refused in words, not the validator’s', async () => {
    const none = await limited.call('estimate_cost', { calls: [] });
    expect(textOf(none)).toBe('Invalid value for "calls": is an empty list: give at least 1.');
    const many = Array.from({ length: 51 }, () => ({ tool: 'get_fear_and_greed_latest' }));
    expect(textOf(await limited.call('estimate_cost', { calls: many }))).toBe(
      'Invalid value for "calls": is a list of 51: at most 50.',
    );
  });

  it('a script is priced at the most it may spend, and its row says so', async () => {
    const result = await limited.call('estimate_cost', {
      calls: [{ tool: 'run_script', arguments: { code: 'return 1' } }],
    });
    expect(textOf(result)).toContain(`run_script | 25 | ${SCRIPT_NOTE}\n`);
  });

  it('leads with the price, then what is refused and why, then the calls that fit, which cover it', async () => {
    const result = await limited.call('estimate_cost', {
      calls: [{ tool: 'get_ohlcv_historical', arguments: YEAR }],
    });
    const [head, why, plan] = textOf(result).split('\n');
    expect(head).toBe('1 planned call: 88 credits in all.');
    expect(why).toBe(
      'Refused before sending: 1 over the limit of 25 credits a call (SVC_MAX_CREDITS_PER_CALL). What would be sent now: 0 credits.',
    );
    expect(plan).toMatch(/^get_ohlcv_historical fits as 4 calls of at most 25 credits, 88 in all: \{/);
    const row = (
      result.structuredContent as {
        calls: { fitting_plan: { calls: Record<string, unknown>[]; credits: number[]; total: number } }[];
      }
    ).calls[0]!;
    expect(row.fitting_plan.credits).toEqual([25, 25, 25, 13]);
    // Made for real, the plan's calls are each within the limit, charged as priced, and hold
    // every candle of the one call the limit refused, once.
    const parts = [];
    for (const [i, args] of row.fitting_plan.calls.entries()) {
      const part = await candles(limited, args);
      expect(part.credits).toBe(row.fitting_plan.credits[i]);
      parts.push(...part.seen);
    }
    const whole = await candles(unlimited, YEAR);
    expect(whole.credits).toBe(88);
    expect(parts.sort()).toEqual(whole.seen.sort());
    expect(new Set(parts).size).toBe(8_760);
  });

  it.each([
    [
      'get_cryptocurrency_quotes_historical',
      { symbol: 'BTC', interval: 'hourly', count: 5000 },
      'quotes',
      'timestamp',
    ],
    ['get_cryptocurrency_listings_latest', { limit: 5000, convert: 'USD,EUR' }, undefined, 'id'],
    [
      'get_cryptocurrency_quotes_latest',
      {
        id: Array.from({ length: 1000 }, (_, i) => i + 1).join(','),
        skip_invalid: true,
        convert: 'USD,EUR,GBP,JPY,CHF,CAD,AUD,CNY,INR,BRL,KRW,MXN,SGD,HKD,SEK,NOK,DKK',
      },
      undefined,
      'id',
    ],
  ])('%s: the plan that fits holds the rows of the call it stands for', async (tool, args, points, key) => {
    const result = await limited.call('estimate_cost', { calls: [{ tool, arguments: args }] });
    const plan = (
      result.structuredContent as { calls: { fitting_plan?: { calls: Record<string, unknown>[] } }[] }
    ).calls[0]?.fitting_plan;
    expect(plan, textOf(result)).toBeDefined();
    const rows = async (session: Session, call: Record<string, unknown>) => {
      const out: string[] = [];
      let next: Record<string, unknown> | undefined = { ...call, format: 'json' };
      while (next !== undefined) {
        const answer = await session.call(tool, next);
        expect(answer.isError, textOf(answer)).toBeFalsy();
        const data = answer.structuredContent as {
          items: Record<string, unknown>[];
          next?: Record<string, unknown>;
        };
        for (const item of data.items) {
          const inner = points === undefined ? [item] : (item[points] as Record<string, unknown>[]);
          for (const row of inner) out.push(String(row[key]));
        }
        next = data.next?.cursor === undefined ? undefined : data.next;
      }
      return out;
    };
    const parts = (await Promise.all((plan?.calls ?? []).map((call) => rows(limited, call)))).flat();
    expect(parts.sort()).toEqual((await rows(unlimited, args)).sort());
  });

  it('an exclusive start is not counted as a point: estimated as charged', async () => {
    const estimate = await unlimited.call('estimate_cost', {
      calls: [{ tool: 'get_ohlcv_historical', arguments: TEN }],
    });
    expect(textOf(estimate).split('\n')[0]).toBe('1 planned call: 72 credits in all.');
    const made = await candles(unlimited, TEN);
    expect(made.credits).toBe(72);
    expect(made.seen).toHaveLength(7_200);
  });
});
