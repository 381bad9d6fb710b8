/**
 * Several replicas on one Redis: servers built in this process with the same SVC_REDIS_URL share
 * one budget and one cache, as HTTP replicas behind a load balancer would. Each test has a key
 * prefix of its own on one real redis-server, and counts requests at a real sandbox.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Env, textOf } from '../helpers/cli.js';
import { startMcp } from '../helpers/in-process.js';
import { redisMissing, startRedis, type TestRedis } from '../helpers/redis.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import type { Session } from '../helpers/session.js';
import { until } from '../helpers/until.js';

const missing = redisMissing();

const meta = (result: CallToolResult) =>
  result._meta as { credits: number; cached: boolean; joined: boolean };

describe.skipIf(missing)('replicas on one Redis', () => {
  let redis: TestRedis;
  let sandbox: Sandbox;
  const stateRoot = mkdtempSync(join(tmpdir(), 'svc-mcp-replicas-'));
  const sessions: Session[] = [];

  beforeAll(async () => {
    [redis, sandbox] = await Promise.all([startRedis(), startTestSandbox({ rateLimit: false })]);
  });
  afterAll(async () => {
    await Promise.all(sessions.map((s) => s.close()));
    await Promise.all([redis?.close(), sandbox?.close()]);
    rmSync(stateRoot, { recursive: true, force: true });
  });

  const requests = (path: string) => sandbox.stats.byPath.get(path) ?? 0;

  /**
   * Replicas: server processes on one Redis under one prefix, each with a state directory of its
   * own, as on machines of their own (a shared directory would share the SQLite ledger).
   */
  async function replica(prefix: string, extra: Env = {}): Promise<Session> {
    const started = await startMcp(
      sandboxEnv(sandbox, 'sandbox-enterprise', {
        SVC_REDIS_URL: redis.url,
        SVC_REDIS_PREFIX: prefix,
        SVC_STATE_DIR: mkdtempSync(join(stateRoot, 'replica-')),
        ...extra,
      }),
    );
    sessions.push(started);
    return started;
  }

  /** Two replicas under one prefix, started side by side. */
  function twoReplicas(prefix: string, extra: Env = {}): Promise<[Session, Session]> {
    return Promise.all([replica(prefix, extra), replica(prefix, extra)]);
  }

  it('two replicas on a budget of 30, each sent 30 concurrent calls, answer 30 and send 30', async () => {
    const path = '/v3/fear-and-greed/latest';
    const [a, b] = await twoReplicas('budget', {
      SVC_CREDIT_BUDGET: '30',
      SVC_CREDIT_WINDOW: 'total',
      SVC_CACHE: 'off',
    });
    const before = requests(path);
    const results = await Promise.all(
      [a, b].flatMap((replica) =>
        Array.from({ length: 30 }, () => replica.call('get_fear_and_greed_latest')),
      ),
    );
    const answered = results.filter((r) => !r.isError);
    const refused = results.filter((r) => r.isError);
    expect(answered.length, refused.map(textOf).join('\n')).toBe(30);
    expect(requests(path) - before).toBe(30);
    for (const r of refused) expect(textOf(r)).toMatch(/0 credits of the total budget of 30 are left/);

    // Each replica's figures, the usage calls themselves left out: each is booked as a free call,
    // so the one asked second counts the first.
    const usageA = await a.call('get_credit_usage');
    const usageB = await b.call('get_credit_usage');
    const besidesUsage = (usage: CallToolResult) => {
      const { by_tool, ...figures } = usage.structuredContent as { by_tool: Record<string, unknown> };
      const { get_credit_usage: _, ...tools } = by_tool;
      return { ...figures, by_tool: tools };
    };
    expect(besidesUsage(usageA)).toEqual(besidesUsage(usageB));
    expect(usageA.structuredContent).toMatchObject({
      window: 'total',
      budget: 30,
      spent: 30,
      reserved: 0,
      left: 0,
      by_tool: { get_fear_and_greed_latest: { calls: 30, credits: 30, cache_hits: 0 } },
    });
    expect(usageA.structuredContent?.ledger).toMatch(
      /^redis:\/\/127\.0\.0\.1:\d+\/0 \(keys budget:ledger:\*\)$/,
    );
  });

  it('an answer cached by one replica is a hit on the other; identical calls in flight join', async () => {
    const [a, b] = await twoReplicas('cache');
    const metrics = '/v1/global-metrics/quotes/latest';
    const before = requests(metrics);
    const first = await a.call('get_global_metrics_latest');
    const second = await b.call('get_global_metrics_latest');
    expect(meta(first)).toMatchObject({ credits: 1, cached: false });
    expect(meta(second)).toMatchObject({ credits: 0, cached: true });
    expect(second.structuredContent).toEqual(first.structuredContent);
    expect(requests(metrics) - before).toBe(1);

    // The service takes 1.5 s: whichever replica asks second waits for the first one's answer.
    const index = '/v3/index/svc100-latest';
    sandbox.faults.add({ path: index, kind: 'delay', ms: 1500 });
    const atIndex = requests(index);
    const pair = await Promise.all([a.call('get_svc100_index_latest'), b.call('get_svc100_index_latest')]);
    expect(pair.map((r) => r.isError)).toEqual([undefined, undefined]);
    expect(pair.map((r) => meta(r).joined).sort()).toEqual([false, true]);
    expect(pair.map((r) => meta(r).credits).sort()).toEqual([0, 1]);
    expect(requests(index) - atIndex).toBe(1);

    const usageA = await a.call('get_credit_usage');
    const usageB = await b.call('get_credit_usage');
    const { by_tool: toolsA, ...figuresA } = usageA.structuredContent as { by_tool: object };
    const { by_tool: toolsB, ...figuresB } = usageB.structuredContent as { by_tool: object };
    expect(figuresB).toEqual(figuresA);
    // B's figures hold A's own question too: a free call, booked on the shared ledger.
    expect(toolsB).toEqual({ ...toolsA, get_credit_usage: { calls: 1, credits: 0, cache_hits: 0 } });
    expect(figuresA).toMatchObject({ spent: 2, cache_hits: 2, credits_saved: 2 });
  });

  it('Redis stopped: budgeted calls refused, unbudgeted ones go on; Redis back: calls go on by themselves', async () => {
    const budgeted = await replica('outage', { SVC_CREDIT_BUDGET: '100', SVC_CREDIT_WINDOW: 'total' });
    const unbudgeted = await replica('outage');
    expect((await budgeted.call('get_fear_and_greed_latest')).isError).toBeFalsy();

    await redis.stop();
    const path = '/v3/fear-and-greed/historical';
    const before = requests(path);
    const refused = await budgeted.call('get_fear_and_greed_historical');
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/Redis is unreachable.*budgeted calls are refused/s);
    expect(requests(path)).toBe(before);
    const usage = await budgeted.call('get_credit_usage');
    expect(usage.structuredContent?.problem).toMatch(/Redis is unreachable/);

    const free = await unbudgeted.call('get_fear_and_greed_historical');
    expect(free.isError, textOf(free)).toBeFalsy();
    expect(requests(path)).toBe(before + 1);

    await redis.start();
    let recovered: CallToolResult | undefined;
    await until(async () => {
      recovered = await budgeted.call('get_fear_and_greed_historical');
      return !recovered.isError;
    }, 15_000).catch(() => {});
    expect(recovered?.isError, recovered && textOf(recovered)).toBeFalsy();
    // The ledger kept the credit spent before the outage (Redis keeps its data across a restart).
    const after = await budgeted.call('get_credit_usage');
    expect(after.structuredContent).toMatchObject({ spent: 2 });
    expect(after.structuredContent?.problem).toBeUndefined();
  });
});
