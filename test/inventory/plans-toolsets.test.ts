/**
 * Plans and toolsets: the sandbox key of each plan calls every tool and is refused exactly the
 * endpoints its plan lacks, with a message naming the plans that have them; SVC_PLAN hides those
 * tools; SVC_TOOLSETS picks groups, `default` and `all`, in any case.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../../src/inventory/tools.js';
import { PLANS, planTitle } from '../../src/kit/index.js';
import { toolPlans } from '../../src/kit/toolsets.js';
import { creditUsage, firstText } from '../helpers/cli.js';
import { startMcp } from '../helpers/in-process.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import { ALL_TOOLS, DEFAULT_TOOLS, defaultArgs } from '../helpers/tool-names.js';

const names = (tools: Tool[]) => tools.map((t) => t.name);

/** The names tools/list gives with these settings. */
async function listed(env: Record<string, string>): Promise<string[]> {
  const mcp = await startMcp(env);
  try {
    return names(mcp.tools);
  } finally {
    await mcp.close();
  }
}
const byName = new Map(tools.map((tool) => [tool.name, tool]));
/** The plans that have a tool: an endpoint's, the analysis's (those of the candles it reads), or all. */
const plansOf = (name: string): readonly string[] => {
  const tool = byName.get(name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return toolPlans(tool);
};
const onPlan = (plan: string) => ALL_TOOLS.filter((tool) => plansOf(tool).includes(plan));

describe('the sandbox key of each plan', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ rateLimit: false });
  });
  afterAll(() => sandbox?.close());

  it.each(PLANS)(
    'sandbox-%s: every tool its plan has answers; the others are refused naming the plans',
    async (plan) => {
      const mcp = await startMcp(
        sandboxEnv(sandbox, `sandbox-${plan}`, { SVC_TOOLSETS: 'all', SVC_CACHE: 'off' }),
      );
      try {
        expect(names(mcp.tools)).toEqual(ALL_TOOLS);
        for (const tool of ALL_TOOLS) {
          const result = await mcp.call(tool, defaultArgs(tool));
          const text = firstText(result);
          const plans = plansOf(tool);
          if (plans.includes(plan)) {
            expect(result.isError, `${tool} on ${plan}: ${text}`).toBeFalsy();
          } else {
            expect(result.isError, `${tool} on ${plan}`).toBe(true);
            expect(text, tool).toMatch(/403|1006/);
            expect(text, tool).toContain(plans.map((p) => planTitle(p as never)).join(', '));
          }
        }
        const info = await mcp.call('get_key_info');
        expect(firstText(info)).toMatch(/This minute: \d+ requests made, \d+ left of (30|60|90|120)\b/);
      } finally {
        await mcp.close();
      }
    },
  );

  it('a call refused for the plan costs nothing', async () => {
    const sandbox = await startTestSandbox({ rateLimit: false });
    const mcp = await startMcp(sandboxEnv(sandbox, 'sandbox-basic', { SVC_TOOLSETS: 'all' }));
    const spent = async () => (await creditUsage(mcp)).spent;
    try {
      const before = await spent();
      const refused = await mcp.call('get_latest_content');
      expect(refused.isError).toBe(true);
      expect(await spent()).toBe(before);
    } finally {
      await mcp.close();
      await sandbox.close();
    }
  });
});

describe('SVC_PLAN', () => {
  it('a history past the plan’s depth is refused before sending, free; one within it is answered', async () => {
    const sandbox = await startTestSandbox({ rateLimit: false });
    const mcp = await startMcp(
      sandboxEnv(sandbox, 'sandbox-startup', { SVC_PLAN: 'startup', SVC_TOOLSETS: 'all' }),
    );
    try {
      const before = sandbox.stats.requests;
      const far = {
        get_global_metrics_historical: { time_start: '2025-01-01', interval: 'daily' },
        get_cryptocurrency_quotes_historical: { symbol: 'BTC', count: 90, interval: 'daily' },
        get_ohlcv_historical: { symbol: 'BTC', count: 90 },
        get_cryptocurrency_listings_historical: { date: '2025-06-01' },
      };
      for (const [tool, args] of Object.entries(far)) {
        const refused = await mcp.call(tool, args);
        expect(refused.isError, tool).toBe(true);
        expect(firstText(refused)).toMatch(
          /^Refused before sending: this request reaches back to \d{4}-\d\d-\d\d, but the Startup plan \(SVC_PLAN=startup\) has 1 month of history, back to \d{4}-\d\d-\d\d: ask for a later (time_start or a smaller count|date)\. Nothing was charged\.$/,
        );
        expect(refused._meta?.credits).toBe(0);
      }
      expect(sandbox.stats.requests, 'nothing sent').toBe(before);
      const priced = await mcp.call('estimate_cost', {
        calls: [{ tool: 'get_ohlcv_historical', arguments: { symbol: 'BTC', count: 90 } }],
      });
      expect(firstText(priced)).toContain('Refused before sending: this request reaches back to');
      for (const [tool, args] of Object.entries({
        get_global_metrics_historical: { count: 20, interval: 'daily' },
        get_ohlcv_historical: { symbol: 'BTC', count: 20 },
      })) {
        const near = await mcp.call(tool, args);
        expect(near.isError, firstText(near)).toBeFalsy();
      }
    } finally {
      await mcp.close();
      await sandbox.close();
    }
  });

  it.each(['hobbyist', 'startup', 'standard'])(
    'SVC_PLAN=%s with every toolset lists the tools the plan has',
    async (plan) => {
      expect(await listed({ SVC_PLAN: plan, SVC_TOOLSETS: 'all' })).toEqual(onPlan(plan));
    },
  );
});

describe('SVC_TOOLSETS', () => {
  it.each([
    ['all', ALL_TOOLS],
    [
      'default,content',
      ALL_TOOLS.filter((t) => DEFAULT_TOOLS.includes(t) || t.includes('post') || t === 'get_latest_content'),
    ],
    ['legacy', ['get_cryptocurrency_listings_latest_v1', 'get_cryptocurrency_quotes_latest_v2']],
    ['DEFAULT,Kline', ALL_TOOLS.filter((t) => DEFAULT_TOOLS.includes(t) || t.startsWith('get_kline'))],
    ['utilities', ['convert_price', 'get_fiat_map']],
  ])('SVC_TOOLSETS=%s', async (value, expected) => {
    expect(await listed({ SVC_TOOLSETS: value })).toEqual(expected);
  });

  it('the default list: at most 30 tools, the legacy ones outside it', () => {
    expect(DEFAULT_TOOLS.length).toBeLessThanOrEqual(30);
    expect(DEFAULT_TOOLS).not.toContain('get_cryptocurrency_listings_latest_v1');
    expect(DEFAULT_TOOLS).not.toContain('get_cryptocurrency_quotes_latest_v2');
  });
});
