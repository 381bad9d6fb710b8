/**
 * What the model sees: tools/list (each definition against its file: toolsnaps.test.ts), annotations, the banner, stdout
 * carrying protocol only, and the SVC_PLAN / SVC_TOOLSETS filters.
 */
import { readFileSync } from 'node:fs';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstText, REPO_ROOT, runCli, spawnCli } from '../helpers/cli.js';
import { startMcp } from '../helpers/in-process.js';
import { type Session, spawnMcp } from '../helpers/session.js';
import { withoutLedgerNotice } from '../helpers/sqlite.js';
import { DEFAULT_TOOLS } from '../helpers/tool-names.js';

const VERSION = JSON.parse(readFileSync(`${REPO_ROOT}/package.json`, 'utf8')).version as string;

const COMMUNITY = ['get_trending_community_tokens', 'get_trending_community_topics'];
/** Default tools a Basic key lacks: community (Standard+), quotes history (Hobbyist+), OHLCV history and gainers-losers (Startup+). */
const NOT_BASIC = [
  ...COMMUNITY,
  'get_cryptocurrency_quotes_historical',
  'get_ohlcv_historical',
  'get_gainers_losers',
  // It reads the candles, which Basic lacks.
  'analyze_assets',
  // News is on Standard and above.
  'get_latest_content',
];

const names = (tools: Tool[]) => tools.map((t) => t.name);

describe('tools/list on the embedded sandbox', () => {
  let mcp: Session;
  beforeAll(async () => {
    mcp = await startMcp();
  });
  afterAll(() => mcp?.close());

  it('has the tools the contract names (docs/architecture.md), in the inventory order', () => {
    expect(names(mcp.tools)).toEqual(DEFAULT_TOOLS);
  });

  it('every tool: title, annotations by its kind, a description ending with credits and plans', () => {
    // Local tools answer from the server's own figures: not the service's open world (the hint's
    // default, which the others leave unsaid).
    const local = new Set(['query_data', 'get_credit_usage', 'estimate_cost']);
    for (const tool of mcp.tools) {
      expect(tool.title, tool.name).toMatch(/\S/);
      expect(tool.annotations, tool.name).toEqual(
        local.has(tool.name) ? { readOnlyHint: true, openWorldHint: false } : { readOnlyHint: true },
      );
      // The plans are named when not every plan has the tool.
      expect(tool.description, tool.name).toMatch(/\nCredits: [^\n]+\.( Plans: [A-Z][a-z]+\+\.)?$/);
    }
  });

  it('every tool: an object input schema declaring format, each parameter described or self-explaining, and an output schema', async () => {
    // The cursor, which the instructions explain once, is not listed tool by tool; format is, by its
    // values (the instructions say what each gives); what names itself (start, limit, a range's
    // bounds) or has its default and values listed goes without words.
    const plain =
      /^(start|limit|amount|convert_id|skip_invalid|time_end|interval|sort|time_period|\w+_(min|max))$/;
    const all = await startMcp({ SVC_TOOLSETS: 'all' });
    try {
      expect(all.tools.length).toBeGreaterThan(mcp.tools.length);
      for (const tool of all.tools) {
        const input = tool.inputSchema as {
          type: string;
          properties: Record<string, { description?: string; enum?: unknown[]; default?: unknown }>;
        };
        expect(input.type, tool.name).toBe('object');
        expect(input.properties.format, tool.name).toEqual({ enum: ['text', 'json'] });
        expect(input.properties.cursor, tool.name).toBeUndefined();
        for (const [param, schema] of Object.entries(input.properties)) {
          const speaks =
            param === 'format' ||
            plain.test(param) ||
            schema.enum !== undefined ||
            schema.default !== undefined;
          if (!speaks) expect(schema.description, `${tool.name}.${param}`).toMatch(/\S/);
        }
        expect(tool.outputSchema?.type, tool.name).toBe('object');
        expect(JSON.stringify(tool)).not.toContain('$schema');
      }
    } finally {
      await all.close();
    }
  });

  it('format, as listed, is taken: json gives the structured data as text', async () => {
    const result = await mcp.call('get_fear_and_greed_latest', { format: 'json' });
    expect(JSON.parse(firstText(result))).toStrictEqual(result.structuredContent);
  });

  it('the process prints a banner on stderr naming the version, the data source and the tool count', async () => {
    // With a key and a base URL the data source is the service at that host, not the sandbox.
    const upstream = { SVC_API_KEY: 'banner-test-key', SVC_BASE_URL: 'http://127.0.0.1:9' };
    for (const [env, source, count] of [
      [{}, /data: sandbox \(embedded\)/, DEFAULT_TOOLS.length],
      [upstream, /data: [^·(]*127\.0\.0\.1:9 /, DEFAULT_TOOLS.length],
    ] as const) {
      const proc = await spawnMcp(env);
      try {
        const lines = withoutLedgerNotice(await proc.waitForStderr(/tools\n/));
        expect(lines).toHaveLength(1);
        expect(lines[0]).toContain(`svc-mcp ${VERSION}`);
        expect(lines[0]).toMatch(source);
        expect(lines[0]).not.toContain('banner-test-key');
        expect(lines[0]).toMatch(new RegExp(`\\b${count} tools$`));
      } finally {
        await proc.close();
      }
    }
  });

  it('the server says who it is: its name, title and icon', () => {
    expect(mcp.client.getServerVersion()).toEqual({
      name: 'svc-mcp',
      version: VERSION,
      title: 'Market Data Service',
      icons: [
        {
          src: expect.stringMatching(/^data:image\/svg\+xml,%3Csvg/),
          mimeType: 'image/svg+xml',
          sizes: ['any'],
        },
      ],
    });
    expect((mcp.client.getServerVersion()?.icons?.[0]?.src ?? '').length).toBeLessThanOrEqual(255);
    expect(mcp.client.getServerCapabilities()?.tools).toBeDefined();
  });
});

describe('stdout carries only protocol', () => {
  it('every line a server writes is a JSON-RPC message', async () => {
    const proc = spawnCli(['stdio'], {}, 'pipe');
    const send = (message: object) => proc.child.stdin?.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'get_fear_and_greed_latest', arguments: {} },
    });
    send({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'get_svc20_index_latest', arguments: { x: 1 } },
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no answers to ids 3 and 4; stdout: ${proc.stdout()}`)),
        10_000,
      );
      proc.child.stdout?.on('data', () => {
        if (proc.stdout().includes('"id":3') && proc.stdout().includes('"id":4')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    proc.child.stdin?.end();
    expect(await proc.exited).toEqual({ code: 0, signal: null });

    const lines = proc
      .stdout()
      .split('\n')
      .filter((line) => line !== '');
    const messages = lines.map((line) => JSON.parse(line));
    for (const message of messages) expect(message.jsonrpc).toBe('2.0');
    expect(messages.map((m) => m.id).sort()).toEqual([1, 2, 3, 4]);
    const byId = new Map(messages.map((m) => [m.id, m]));
    expect(byId.get(3).result.content[0].text).toMatch(/^Fear & Greed \d+ – /);
    expect(byId.get(4).result.isError).toBe(true);
    expect(withoutLedgerNotice(proc.stderr())).toHaveLength(1);
  });
});

describe('SVC_PLAN and SVC_TOOLSETS', () => {
  it('SVC_PLAN=basic hides the tools its plan lacks (community, history, gainers-losers, analysis, news)', async () => {
    const mcp = await startMcp({ SVC_PLAN: 'basic' });
    try {
      expect(names(mcp.tools)).toEqual(DEFAULT_TOOLS.filter((n) => !NOT_BASIC.includes(n)));
      const result = await mcp.call('get_trending_community_tokens');
      expect(result.isError).toBe(true);
      // Not "unknown": the answer says which setting hid it and which plans have it.
      expect(result.content[0]).toEqual({
        type: 'text',
        text: 'The tool "get_trending_community_tokens" is hidden by SVC_PLAN=basic: the service includes it on the Standard, Professional, Enterprise plans.',
      });
    } finally {
      await mcp.close();
    }
  });

  it('SVC_PLAN=standard (any case) keeps them', async () => {
    const run = await runCli(['tools'], { SVC_PLAN: 'Standard' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('get_trending_community_topics');
  });

  it('SVC_TOOLSETS=sentiment,dex exposes only those groups', async () => {
    const mcp = await startMcp({ SVC_TOOLSETS: 'sentiment,dex' });
    try {
      expect(names(mcp.tools)).toEqual([
        'get_fear_and_greed_latest',
        'get_fear_and_greed_historical',
        'get_altcoin_season_index_latest',
        'get_altcoin_season_index_historical',
        'list_dex_platforms',
        'get_dex_platform',
      ]);
    } finally {
      await mcp.close();
    }
  });

  it('SVC_TOOLSETS=community with SVC_PLAN=basic leaves no tool: a one-line error, exit 2, from tools and stdio', async () => {
    const env = { SVC_TOOLSETS: 'community', SVC_PLAN: 'basic' };
    const message =
      'svc-mcp: SVC_PLAN=basic and SVC_TOOLSETS=community leave no tool to expose: every tool in those toolsets needs a higher plan. Add toolsets (default, all) or check SVC_PLAN.\n';
    const run = await runCli(['tools', '--json'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(message);
    // On stdio the check comes once the tool path has loaded; a host keeps stdin open meanwhile.
    const proc = spawnCli(['stdio'], env, 'pipe');
    expect(await proc.exited).toEqual({ code: 2, signal: null });
    expect(proc.stderr()).toBe(message);
  });

  it('a tool left out by SVC_TOOLSETS says which toolset has it', async () => {
    const run = await runCli(['call', 'get_kline_candles']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'svc-mcp: The tool "get_kline_candles" is in the kline toolset, which SVC_TOOLSETS=default leaves out; add kline (or all) to SVC_TOOLSETS to expose it.\n',
    );
  });

  it.each([
    ['SVC_TOOLSETS', 'sentiment,weather', /SVC_TOOLSETS.*unknown toolset "weather"/],
    ['SVC_PLAN', 'platinum', /SVC_PLAN.*basic, hobbyist, startup, standard, professional, enterprise/],
  ])('an unknown %s value is a startup error naming the variable (exit 2)', async (name, value, message) => {
    const run = await runCli(['tools'], { [name]: value });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
  });

  it('the stdio server refuses to start on an unknown toolset, with the same message', async () => {
    const run = await runCli(['stdio'], { SVC_TOOLSETS: 'weather' });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/SVC_TOOLSETS/);
  });
});
