/**
 * Free calls with made-up keys, over HTTP, where each request may carry a key of its own. Tried as
 * a hostile caller would: 2,000 query_data calls, each with a made-up key, left 2,000 accounts on
 * the ledger (a row of figures and a row of tool calls each, 2.5 MB of SQLite's journal), and would
 * have gone on growing it. A free call is now counted only for an account with figures in the
 * window (a request sent, a cache hit): a made-up key leaves nothing, on SQLite and on Redis, while
 * a key that paid has its free calls counted as before.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { newStateDir } from '../helpers/cli.js';
import { callToolRaw } from '../helpers/http.js';
import { startHttpServer } from '../helpers/in-process.js';
import { redisMissing, sharedRedis } from '../helpers/redis.js';
import { type Sandbox, startTestSandbox } from '../helpers/sandbox.js';
import type { HttpServer } from '../helpers/session.js';

const KEY_HEADER = 'X-SVC_PRO_API_KEY';
type Usage = { spent: number; by_tool: Record<string, { calls: number; credits: number }> };

const running: { stop(): Promise<unknown>; close?: never }[] = [];
let sandbox: Sandbox | undefined;
afterAll(async () => {
  for (const server of running) await server.stop();
  await sandbox?.close();
});

async function serverWith(env: Record<string, string>): Promise<HttpServer> {
  sandbox ??= await startTestSandbox({ rateLimit: false });
  const server = await startHttpServer({ SVC_BASE_URL: sandbox.url, SVC_STATE_DIR: newStateDir(), ...env });
  running.push(server);
  return server;
}

async function freeCallsLeaveNothing(server: HttpServer): Promise<void> {
  const as = (key: string, name: string, args: Record<string, unknown> = {}) =>
    callToolRaw(server.url, name, args, { [KEY_HEADER]: key });
  const usage = async (key: string) =>
    (await as(key, 'get_credit_usage', { format: 'json' })).structuredContent as Usage;
  for (let i = 0; i < 20; i++) {
    const answer = await as(`made-up-key-${i}`, 'query_data', { sql: 'SELECT 1' });
    expect(answer.isError, answer.content[0]?.text).toBeFalsy();
  }
  await as('made-up-key-0', 'estimate_cost', { calls: [{ tool: 'get_fear_and_greed_latest' }] });
  expect((await usage('made-up-key-0')).by_tool).toEqual({});
  expect((await usage('made-up-key-19')).by_tool).toEqual({});

  // A key the service has seen: its free calls count, as before.
  const paid = await as('sandbox-enterprise', 'get_fear_and_greed_latest');
  expect(paid.isError, paid.content[0]?.text).toBeFalsy();
  await as('sandbox-enterprise', 'query_data', { sql: 'SELECT 1' });
  const counted = await usage('sandbox-enterprise');
  expect(counted.by_tool.query_data).toEqual({ calls: 1, credits: 0, cache_hits: 0 });
  expect(counted.by_tool.get_fear_and_greed_latest?.calls).toBe(1);
}

describe('free calls with made-up keys', () => {
  it('leave nothing on the SQLite ledger', async () => {
    await freeCallsLeaveNothing(await serverWith({}));
  });

  it.skipIf(redisMissing())('leave nothing on the Redis ledger', async () => {
    const redis = sharedRedis();
    await freeCallsLeaveNothing(
      await serverWith({ SVC_REDIS_URL: redis.url, SVC_REDIS_PREFIX: redis.prefix }),
    );
  });
});
