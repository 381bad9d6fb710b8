/**
 * Prometheus metrics after a known sequence of real calls, end to end: `svc-mcp http` against the
 * real sandbox on loopback, called by an MCP client, and the text it serves at /metrics.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountOf } from '../../src/guard/accounts.js';
import { textOf } from '../helpers/cli.js';
import { rawRequest } from '../helpers/http.js';
import { startHttpServer } from '../helpers/in-process.js';
import { sample } from '../helpers/metrics.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import { connectHttp, type HttpServer, type Session } from '../helpers/session.js';
import { until } from '../helpers/until.js';

describe('metrics', () => {
  let sandbox: Sandbox;
  let server: HttpServer;
  let session: Session;
  const stateDir = mkdtempSync(join(tmpdir(), 'svc-mcp-metrics-'));

  beforeAll(async () => {
    sandbox = await startTestSandbox({ rateLimit: false });
    const env = sandboxEnv(sandbox, 'sandbox-enterprise', {
      SVC_CREDIT_BUDGET: '2',
      SVC_STATE_DIR: stateDir,
    });
    server = await startHttpServer(env);
    session = await connectHttp(server, 'v2');
  });
  afterAll(async () => {
    await session?.close();
    await server?.stop();
    await sandbox?.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('count calls, refusals, cache hits and misses, credits, upstream latency and calls in flight', async () => {
    const call = (name: string, args: Record<string, unknown> = {}) => session.call(name, args);
    const metrics = {
      contentType: '',
      async render() {
        const response = await rawRequest(`${server.origin}/metrics`, { method: 'GET' });
        expect(response.status).toBe(200);
        this.contentType = String(response.headers['content-type']);
        return response.text;
      },
    };

    expect((await call('get_fear_and_greed_latest')).isError).toBeFalsy();
    expect((await call('get_fear_and_greed_latest'))._meta?.cached).toBe(true);
    expect((await call('get_fear_and_greed_latest', { limit: 'zz-argument-7' })).isError).toBe(true);
    sandbox.faults.add({ path: '/v3/index/svc100-latest', kind: 'delay', ms: 300 });
    const asked = sandbox.stats.byPath.get('/v3/index/svc100-latest') ?? 0;
    const slow = call('get_svc100_index_latest');
    // The call is in flight once the sandbox has its request (the fault holds the answer 300 ms).
    await until(() => (sandbox.stats.byPath.get('/v3/index/svc100-latest') ?? 0) > asked);
    const during = await metrics.render();
    expect((await slow).isError).toBeFalsy();
    expect((await call('get_altcoin_season_index_latest')).isError).toBe(true); // the budget of 2 is spent
    expect((await call('get_credit_usage')).isError).toBeFalsy();

    expect(sample(during, 'svc_mcp_tool_calls_in_flight')).toBe(1);
    const text = await metrics.render();
    expect(metrics.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    const fng = { tool: 'get_fear_and_greed_latest' };
    const svc100 = { tool: 'get_svc100_index_latest' };
    expect(sample(text, 'svc_mcp_tool_calls_total', { ...fng, outcome: 'ok' })).toBe(2);
    expect(sample(text, 'svc_mcp_tool_calls_total', { ...fng, outcome: 'invalid' })).toBe(1);
    expect(sample(text, 'svc_mcp_tool_calls_total', { ...svc100, outcome: 'ok' })).toBe(1);
    expect(
      sample(text, 'svc_mcp_tool_calls_total', {
        tool: 'get_altcoin_season_index_latest',
        outcome: 'refused',
      }),
    ).toBe(1);
    expect(sample(text, 'svc_mcp_tool_calls_total', { tool: 'get_credit_usage', outcome: 'ok' })).toBe(1);
    expect(sample(text, 'svc_mcp_refusals_total', { reason: 'budget' })).toBe(1);
    expect(sample(text, 'svc_mcp_cache_hits_total', fng)).toBe(1);
    expect(sample(text, 'svc_mcp_cache_misses_total', fng)).toBe(1);
    expect(sample(text, 'svc_mcp_cache_misses_total', svc100)).toBe(1);
    expect(sample(text, 'svc_mcp_credits_spent_total', fng)).toBe(1);
    expect(sample(text, 'svc_mcp_credits_spent_total', svc100)).toBe(1);
    const account = { account: accountOf('sandbox-enterprise') };
    expect(sample(text, 'svc_mcp_window_credits_spent', account)).toBe(2);
    expect(sample(text, 'svc_mcp_window_credits_left', account)).toBe(0);
    const latency = { ...svc100, outcome: 'ok' };
    expect(sample(text, 'svc_mcp_upstream_request_duration_seconds_count', latency)).toBe(1);
    expect(sample(text, 'svc_mcp_upstream_request_duration_seconds_bucket', { ...latency, le: '0.25' })).toBe(
      0,
    );
    expect(sample(text, 'svc_mcp_upstream_request_duration_seconds_bucket', { ...latency, le: '0.5' })).toBe(
      1,
    );
    expect(sample(text, 'svc_mcp_upstream_request_duration_seconds_count', { ...fng, outcome: 'ok' })).toBe(
      1,
    );
    expect(sample(text, 'svc_mcp_tool_calls_in_flight')).toBe(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    // Never the key, never an argument value.
    expect(text).not.toContain('sandbox-enterprise');
    expect(text).not.toContain('zz-argument-7');
  });

  it('a confirmation on 2026-07-28: the round that asks is `asked`, a declined call a refusal of its own reason, an accepted one ok', async () => {
    const asking = await startHttpServer(
      sandboxEnv(sandbox, 'sandbox-enterprise', {
        SVC_CONFIRM_CREDITS: '3',
        SVC_MAX_ANSWER_CHARS: '400000',
        SVC_STATE_DIR: stateDir,
      }),
    );
    let reply: 'accept' | 'decline' = 'decline';
    const person = () =>
      reply === 'accept'
        ? { action: 'accept' as const, content: { confirm: true } }
        : { action: 'decline' as const };
    const session = await connectHttp(asking, 'v2', {}, person);
    const listings = { tool: 'get_cryptocurrency_listings_latest' };
    try {
      // 600 rows at 1 credit per 200: 3 credits, at the threshold, so the person is asked.
      const declined = await session.call(listings.tool, { limit: 600 });
      expect(textOf(declined)).toMatch(/^Not sent: the call was not confirmed/);
      reply = 'accept';
      const accepted = await session.call(listings.tool, { limit: 600 });
      expect(accepted.isError, textOf(accepted)).toBeFalsy();

      const text = (await rawRequest(`${asking.origin}/metrics`, { method: 'GET' })).text;
      expect(sample(text, 'svc_mcp_tool_calls_total', { ...listings, outcome: 'asked' })).toBe(2);
      expect(sample(text, 'svc_mcp_tool_calls_total', { ...listings, outcome: 'refused' })).toBe(1);
      expect(sample(text, 'svc_mcp_tool_calls_total', { ...listings, outcome: 'ok' })).toBe(1);
      expect(sample(text, 'svc_mcp_refusals_total', { reason: 'not_confirmed' })).toBe(1);
      expect(text).toMatch(/# HELP svc_mcp_refusals_total .*\bstopping\b.*\bnot_confirmed\b/);
      expect(sample(text, 'svc_mcp_tool_calls_in_flight')).toBe(0);
      const lines = asking
        .stderr()
        .split('\n')
        .filter((l) => l.includes(`"tool":"${listings.tool}"`))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.map(({ outcome, reason, credits }) => ({ outcome, reason, credits }))).toEqual([
        { outcome: 'asked', reason: undefined, credits: 0 },
        { outcome: 'refused', reason: 'not_confirmed', credits: 0 },
        { outcome: 'asked', reason: undefined, credits: 0 },
        { outcome: 'ok', reason: undefined, credits: 2 },
      ]);
    } finally {
      await session.close();
      await asking.stop();
    }
  });
});
