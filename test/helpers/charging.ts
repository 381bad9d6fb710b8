/**
 * What the charging tests share: the tool they call at a fake upstream, the figures as a server
 * started afterwards reads them, and a server killed with calls sent and calls waiting for a turn.
 */
import { expect } from 'vitest';
import { creditUsage, type Env } from './cli.js';
import type { FakeUpstream } from './fake-upstream.js';
import { startMcp } from './in-process.js';
import { NOW } from './now.js';
import { spawnMcp } from './session.js';
import { until } from './until.js';
import { okStatus } from './upstream-shapes.js';

export const FNG = '/v3/fear-and-greed/latest';
/** What get_fear_and_greed_latest is estimated at, and what the service charges for it. */
export const ESTIMATE = 1;
export const FNG_ANSWER = {
  body: { data: { value: 50, value_classification: 'Neutral', update_time: NOW }, status: okStatus },
};

export interface Usage {
  spent: number;
  reserved: number;
  left: number | null;
}

/** The figures as a server started now with `env` reads them from the ledger (get_credit_usage). */
export async function usage(env: Env): Promise<Usage> {
  const reader = await startMcp(env);
  try {
    return await creditUsage(reader);
  } finally {
    await reader.close();
  }
}

/** The figures once no credit is reserved any more, as one server started now with `env` reads them. */
export async function settledUsage(env: Env, timeoutMs = 5_000): Promise<Usage> {
  const reader = await startMcp(env);
  try {
    let figures = await creditUsage(reader);
    await until(async () => {
      figures = await creditUsage(reader);
      return figures.reserved === 0;
    }, timeoutMs);
    return figures;
  } finally {
    await reader.close();
  }
}

/** Calls the server sends upstream at once (docs/reliability.md). */
export const IN_FLIGHT = 8;

/**
 * A stdio server sent 12 calls at a hanging upstream: 8 go out (each marked sent on the ledger before
 * it went), 4 wait for a turn; once the ledger holds all 12 (with a budget; without one, a call's
 * reservation is written only as it is sent, so the 8), the server is killed.
 */
export async function killWithCallsWaiting(
  upstream: FakeUpstream,
  env: Env,
  held = env.SVC_CREDIT_BUDGET === undefined ? IN_FLIGHT : IN_FLIGHT + 4,
): Promise<void> {
  const mcp = await spawnMcp(env);
  const calls = Array.from({ length: IN_FLIGHT + 4 }, () =>
    mcp.call('get_fear_and_greed_latest').catch((error: Error) => error),
  );
  await until(() => upstream.requests.length === IN_FLIGHT);
  await until(async () => {
    return (await creditUsage(mcp)).reserved === held;
  });
  process.kill(mcp.pid, 'SIGKILL');
  await Promise.all(calls);
  await mcp.close().catch(() => {});
  expect(upstream.requests).toHaveLength(IN_FLIGHT);
}
