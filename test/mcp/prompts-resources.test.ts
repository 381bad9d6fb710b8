/**
 * The prompts (market_brief, coin_report) and the resources (svc://endpoints, svc://credits) over
 * stdio on the embedded sandbox, and a coin report followed through with the tools it names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstText } from '../helpers/cli.js';
import { startMcp } from '../helpers/in-process.js';
import type { Session } from '../helpers/session.js';
import { ALL_TOOLS, DEFAULT_TOOLS } from '../helpers/tool-names.js';

let mcp: Session;
beforeAll(async () => {
  mcp = await startMcp();
});
afterAll(() => mcp?.close());

/** The text of a resource read's one content. */
const resourceText = (contents: ({ text: string } | { blob: string })[]) =>
  contents.length === 1 && 'text' in contents[0]! ? contents[0].text : '';

const promptText = (result: { messages: { content: { type: string; text?: string } }[] }) =>
  result.messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('\n');

describe('prompts', () => {
  it('lists market_brief and coin_report (which needs coin)', async () => {
    const { prompts } = await mcp.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['market_brief', 'coin_report']);
    expect(prompts[1]!.arguments).toEqual([expect.objectContaining({ name: 'coin', required: true })]);
    expect(mcp.client.getServerCapabilities()?.prompts).toBeDefined();
  });

  it('market_brief names the five tools in order, each on this server', async () => {
    const text = promptText(await mcp.client.getPrompt({ name: 'market_brief' }));
    const order = [
      'get_global_metrics_latest',
      'get_fear_and_greed_latest',
      'get_altcoin_season_index_latest',
      'get_gainers_losers',
      'analyze_assets',
    ].map((tool) => text.indexOf(`. ${tool}:`));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(text).toContain('sort_dir=asc');
    expect(text).toContain('5. analyze_assets: symbol=BTC, ETH, days=30');
    expect(text).not.toContain('Not available');
  });

  it('coin_report puts the coin in the search and leaves out the tools the server lacks, saying so', async () => {
    const text = promptText(
      await mcp.client.getPrompt({ name: 'coin_report', arguments: { coin: 'solana' } }),
    );
    expect(text).toContain('Write a report on the cryptocurrency "solana"');
    expect(text).toContain('1. search_cryptocurrencies: query="solana"');
    expect(text).toMatch(/ask which one is meant/);
    for (const tool of ['get_cryptocurrency_quotes_latest', 'get_cryptocurrency_info', 'analyze_assets']) {
      expect(text).toContain(`. ${tool}:`);
    }
    // Risk and trend come computed from analyze_assets, not as raw candles for the model to reduce.
    expect(text).not.toContain('get_ohlcv_historical');
    // Price performance is outside the default toolsets: named as missing, not as a step.
    expect(DEFAULT_TOOLS).not.toContain('get_price_performance');
    expect(text).toContain('Not available on this server: get_price_performance');
    expect(text).not.toContain('. get_price_performance:');
  });

  it('refuses a coin_report without a coin, an unknown argument and an unknown prompt, naming what is wrong', async () => {
    await expect(mcp.client.getPrompt({ name: 'coin_report' })).rejects.toThrow(/needs "coin"/);
    await expect(
      mcp.client.getPrompt({ name: 'coin_report', arguments: { coin: 'x'.repeat(101) } }),
    ).rejects.toThrow(/longer than 100/);
    await expect(
      mcp.client.getPrompt({ name: 'coin_report', arguments: { coin: 'btc', days: '7' } }),
    ).rejects.toThrow(/no argument "days"; it takes: coin/);
    await expect(mcp.client.getPrompt({ name: 'weather_report' })).rejects.toThrow(
      /Unknown prompt "weather_report". Available: market_brief, coin_report/,
    );
    expect(mcp.alive()).toBe(true);
  });

  it('with SVC_TOOLSETS=sentiment, market_brief keeps the sentiment steps and names the rest as missing', async () => {
    const sentiment = await startMcp({ SVC_TOOLSETS: 'sentiment' });
    try {
      const text = promptText(await sentiment.client.getPrompt({ name: 'market_brief' }));
      expect(text).toContain('1. get_fear_and_greed_latest:');
      expect(text).toContain('2. get_altcoin_season_index_latest:');
      expect(text).toContain(
        'Not available on this server: get_global_metrics_latest, get_gainers_losers, analyze_assets',
      );
    } finally {
      await sentiment.close();
    }
  });

  it('a coin report followed through: search gives the id the other tools take', async () => {
    const found = await mcp.call('search_cryptocurrencies', { query: 'solana' });
    const { matches } = found.structuredContent as {
      matches: { id: number; symbol: string; exact: boolean }[];
    };
    expect(matches[0]).toMatchObject({ id: 5426, symbol: 'SOL', exact: true });
    const id = String(matches[0]!.id);
    for (const [tool, args] of [
      ['get_cryptocurrency_quotes_latest', { id }],
      ['get_cryptocurrency_info', { id }],
      ['analyze_assets', { id, days: 90 }],
    ] as const) {
      const result = await mcp.call(tool, args);
      expect(result.isError, `${tool}: ${firstText(result)}`).toBeFalsy();
      // The analysis heads its lines with the symbol; the others name the asset.
      expect(firstText(result)).toMatch(tool === 'analyze_assets' ? /^SOL / : /Solana/);
    }
  });
});

describe('resources', () => {
  it("lists svc://credits, svc://endpoints, analyze_assets' definitions, the script declarations and the views of the tools it exposes", async () => {
    const { resources } = await mcp.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([
      'svc://credits',
      'svc://endpoints',
      'svc://analysis/definitions',
      'svc://scripts/declarations',
      'ui://svc-mcp/price.html',
      'ui://svc-mcp/sentiment.html',
      'ui://svc-mcp/overview.html',
    ]);
    expect(resources.map((r) => r.mimeType)).toEqual([
      'application/json',
      'application/json',
      'text/markdown',
      'text/plain',
      ...Array(3).fill('text/html;profile=mcp-app'),
    ]);
  });

  it("svc://analysis/definitions says what each of analyze_assets' figures is, as its answers do", async () => {
    const { contents } = await mcp.client.readResource({ uri: 'svc://analysis/definitions' });
    const text = resourceText(contents);
    expect(text).toMatch(/^# analyze_assets: what each figure is\n/);
    for (const figure of [
      'return_pct',
      'volatility_pct',
      'max_drawdown_pct',
      'rsi_14',
      'MACD',
      'bollinger_pct_b',
      'beta',
    ])
      expect(text).toContain(figure);
    const answer = await mcp.call('analyze_assets', { symbol: 'ETH' });
    const definitions = (answer.structuredContent as { definitions: Record<string, string> }).definitions;
    expect(text.split('\n').slice(1)).toEqual(Object.values(definitions).map((d) => `- ${d}`));
    expect(firstText(answer)).toContain('What each figure is: svc://analysis/definitions');
  });

  it('svc://endpoints is the endpoints table: every endpoint with path, tool, credits, refresh, plans and whether it is exposed', async () => {
    const { contents } = await mcp.client.readResource({ uri: 'svc://endpoints' });
    expect(contents).toHaveLength(1);
    const table = JSON.parse(resourceText(contents)) as {
      path: string;
      tool: string;
      toolset: string;
      default: boolean;
      exposed: boolean;
      credits: string;
      refresh_seconds: number;
      plans: string[];
    }[];
    const endpointTools = ALL_TOOLS.filter(
      (t) =>
        ![
          'search_cryptocurrencies',
          'analyze_assets',
          'query_data',
          'run_script',
          'get_credit_usage',
          'estimate_cost',
        ].includes(t),
    );
    expect(table.map((e) => e.tool)).toEqual(endpointTools);
    expect(new Set(table.map((e) => e.path)).size).toBe(table.length);
    for (const e of table) {
      expect(e.path, e.tool).toMatch(/^\/v[123]\//);
      expect(e.credits, e.tool).toMatch(/\S/);
      expect(e.refresh_seconds, e.tool).toBeGreaterThanOrEqual(0);
      expect(e.plans.length, e.tool).toBeGreaterThan(0);
      expect(e.exposed, e.tool).toBe(DEFAULT_TOOLS.includes(e.tool));
      expect(e.default, e.tool).toBe(e.exposed);
    }
    expect(table.find((e) => e.tool === 'get_kline_candles')?.credits).toMatch(/not documented/);
    expect(table.find((e) => e.tool === 'get_market_pairs')?.plans).toEqual([
      'standard',
      'professional',
      'enterprise',
    ]);
  });

  it('svc://credits gives the guard figures; an unknown resource is an error naming both', async () => {
    const { contents } = await mcp.client.readResource({ uri: 'svc://credits' });
    expect(JSON.parse(resourceText(contents))).toMatchObject({ window: 'day', budget: null });
    await expect(mcp.client.readResource({ uri: 'svc://nothing' })).rejects.toThrow(
      /resources\/list gives this server's \(svc:\/\/credits, svc:\/\/endpoints and more\)/,
    );
  });
});
