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
      `Unknown member "extra" in "calls", at calls[1]; see the parameter's description for what it takes.`,
    );
    expect(await refusal([{ tool: 'get_fear_and_greed_latest', arguments: 'x' }])).toMatch(
      /^Invalid value in "calls", at calls\[0\]\.arguments: invalid input: expected record, received string/,
    );
  });
});
