import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditUsage, newStateDir, textOf } from '../helpers/cli.js';
import { moveClockAhead, restoreClock } from '../helpers/clock.js';
import { type FakeUpstream, startFakeUpstream } from '../helpers/fake-upstream.js';
import { startMcp } from '../helpers/in-process.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import { SECRET_KEY } from '../helpers/secret.js';
import type { Session } from '../helpers/session.js';
import { until } from '../helpers/until.js';

const FNG = '/v3/fear-and-greed/latest';
const FNG_HISTORY = '/v3/fear-and-greed/historical';
const stateDir = () => newStateDir();

describe('on the sandbox', () => {
  let sandbox: Sandbox;
  let mcp: Session;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ rateLimit: false });
    mcp = await startMcp(sandboxEnv(sandbox, 'sandbox-enterprise', { SVC_STATE_DIR: stateDir() }));
  });
  afterAll(async () => {
    await mcp?.close();
    await sandbox?.close();
  });
  const requestsTo = (path: string) => sandbox.stats.byPath.get(path) ?? 0;

  it('a repeated call is a free cache hit that says how old its data is', async () => {
    const before = requestsTo(FNG);
    const first = await mcp.call('get_fear_and_greed_latest');
    expect(first._meta).toEqual({ credits: 1, cached: false, joined: false, age_seconds: 0, sandbox: false });
    // Time passing is what is tested: the answer must be a second old.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = await mcp.call('get_fear_and_greed_latest');
    expect(second._meta).toMatchObject({ credits: 0, cached: true, joined: false });
    expect((second._meta as { age_seconds: number }).age_seconds).toBeGreaterThanOrEqual(1);
    expect(textOf(second).split('\n').at(-1)).toMatch(/^from the cache, 0 credits · \d+ s old$/);
    expect(second.structuredContent).toEqual(first.structuredContent);
    expect(requestsTo(FNG) - before).toBe(1);
    const usage = await creditUsage(mcp);
    expect(usage).toMatchObject({ cache_hits: 1, credits_saved: 1 });
    expect(usage.by_tool).toMatchObject({
      get_fear_and_greed_latest: { calls: 1, credits: 1, cache_hits: 1 },
    });
  });

  it('keys are canonical: parameter order, defaults filled in, and format do not matter', async () => {
    const before = requestsTo(FNG_HISTORY);
    const answers = [
      await mcp.call('get_fear_and_greed_historical', { start: 1, limit: 50 }),
      await mcp.call('get_fear_and_greed_historical', { limit: 50, start: 1 }),
      await mcp.call('get_fear_and_greed_historical', {}),
      await mcp.call('get_fear_and_greed_historical', { format: 'json' }),
    ];
    expect(answers.map((a) => (a._meta as { cached: boolean }).cached)).toEqual([false, true, true, true]);
    expect(requestsTo(FNG_HISTORY) - before).toBe(1);
    await mcp.call('get_fear_and_greed_historical', { limit: 49 });
    expect(requestsTo(FNG_HISTORY) - before).toBe(2);
  });

  it("an answer expires with its endpoint's refresh frequency (fear and greed historical: 15 s)", async () => {
    const args = { start: 3, limit: 3 };
    const before = requestsTo(FNG_HISTORY);
    await mcp.call('get_fear_and_greed_historical', args);
    await mcp.call('get_fear_and_greed_historical', args);
    expect(requestsTo(FNG_HISTORY) - before).toBe(1);
    // The answer's 15 s run out on the wall clock the cache reads; 14 s in, it is still fresh.
    try {
      moveClockAhead(14_000);
      expect((await mcp.call('get_fear_and_greed_historical', args))._meta).toMatchObject({ cached: true });
      restoreClock();
      moveClockAhead(15_200);
      const again = await mcp.call('get_fear_and_greed_historical', args);
      expect(again._meta).toMatchObject({ cached: false, credits: 1 });
    } finally {
      restoreClock();
    }
    expect(requestsTo(FNG_HISTORY) - before).toBe(2);
  });

  it('100 concurrent identical calls make one upstream request', async () => {
    const path = '/v3/index/svc20-latest';
    sandbox.faults.add({ path, kind: 'delay', ms: 300 });
    const before = requestsTo(path);
    const results = await Promise.all(Array.from({ length: 100 }, () => mcp.call('get_svc20_index_latest')));
    expect(requestsTo(path) - before).toBe(1);
    const metas = results.map((r) => r._meta as { credits: number; joined: boolean });
    expect(metas.filter((m) => m.credits === 1 && !m.joined)).toHaveLength(1);
    expect(metas.filter((m) => m.credits === 0 && m.joined)).toHaveLength(99);
    expect(new Set(results.map((r) => JSON.stringify(r.structuredContent))).size).toBe(1);
  });

  it('a failed answer is never cached', async () => {
    const basic = await startMcp(sandboxEnv(sandbox, 'sandbox-basic', { SVC_STATE_DIR: stateDir() }));
    try {
      const path = '/v1/community/trending/token';
      const before = requestsTo(path);
      expect((await basic.call('get_trending_community_tokens')).isError).toBe(true);
      expect((await basic.call('get_trending_community_tokens')).isError).toBe(true);
      expect(requestsTo(path) - before).toBe(2);
    } finally {
      await basic.close();
    }
  });

  it('SVC_CACHE=off: every call makes its own request', async () => {
    const off = await startMcp(sandboxEnv(sandbox, 'sandbox-enterprise', { SVC_CACHE: 'off' }));
    try {
      const before = requestsTo(FNG);
      await Promise.all([off.call('get_fear_and_greed_latest'), off.call('get_fear_and_greed_latest')]);
      await off.call('get_fear_and_greed_latest');
      expect(requestsTo(FNG) - before).toBe(3);
    } finally {
      await off.close();
    }
  });
});

describe('joined calls and cancellation', () => {
  let upstream: FakeUpstream;
  let mcp: Session;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    mcp = await startMcp({ SVC_API_KEY: SECRET_KEY, SVC_BASE_URL: upstream.url });
  });
  afterAll(async () => {
    await mcp?.close();
    await upstream?.close();
  });

  it('a caller that cancels leaves the shared request running for the others', async () => {
    upstream.reply(FNG, {
      delayMs: 400,
      body: {
        status: { error_code: 0, credit_count: 1 },
        data: { value: 51, value_classification: 'Neutral', update_time: '2026-11-22T12:00:00.000Z' },
      },
    });
    const before = upstream.requests.length;
    const controller = new AbortController();
    const first = mcp.client.callTool({ name: 'get_fear_and_greed_latest', arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await until(() => upstream.requests.length > before);
    const second = mcp.call('get_fear_and_greed_latest');
    // Nothing outside the server says a call has joined another; 50 ms of the upstream's 400 ms
    // lets it, and a second call that had not joined would be seen below (joined, one request).
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    await expect(first).rejects.toThrow();
    const answer = await second;
    expect(answer.isError, textOf(answer)).toBeFalsy();
    expect(answer.structuredContent).toMatchObject({ value: 51 });
    expect(answer._meta).toMatchObject({ joined: true, credits: 0 });
    expect(upstream.requests.length - before).toBe(1);
    expect(upstream.requests[before]!.abandoned).toBe(false);
  });
});
