/**
 * A call that waits to try again after a request that cost nothing (the service's 429, free) is
 * not sent while it waits: a server killed then charges nothing for it. Its next attempt is marked
 * sent again before it goes: a server killed once that attempt reached the service charges its
 * estimate. With a budget and without one (where the reservation is written at the first attempt).
 * The ledger is read by a new process and compared with what the counting upstream received.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ESTIMATE, FNG, usage } from '../helpers/charging.js';
import { type Env, newStateDir, startMcp } from '../helpers/cli.js';
import { type FakeUpstream, startFakeUpstream } from '../helpers/fake-upstream.js';
import { SECRET_KEY } from '../helpers/secret.js';
import { until } from '../helpers/until.js';
import { errorBody } from '../helpers/upstream-shapes.js';

const upstreams: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(upstreams.splice(0).map((u) => u.close()));
});

/** The service's per-minute limit: a 429 that charges nothing and asks for a wait of `seconds`. */
const rateLimited = (seconds: number) => ({
  status: 429,
  body: errorBody(1008, "You've exceeded your API Key's HTTP request rate limit."),
  headers: { 'retry-after': String(seconds) },
});

async function serverAt(budget: string | undefined): Promise<{ upstream: FakeUpstream; env: Env }> {
  const upstream = await startFakeUpstream();
  upstreams.push(upstream);
  const env: Env = {
    SVC_API_KEY: SECRET_KEY,
    SVC_BASE_URL: upstream.url,
    SVC_CACHE: 'off',
    SVC_STATE_DIR: newStateDir(),
    ...(budget === undefined ? {} : { SVC_CREDIT_BUDGET: budget }),
  };
  return { upstream, env };
}

describe.each([
  ['with a budget', '100'],
  ['without a budget', undefined],
])('a call waiting to retry, %s', (_, budget) => {
  it('killed during the wait after a free 429: nothing is charged', async () => {
    const { upstream, env } = await serverAt(budget);
    upstream.reply(FNG, rateLimited(5));
    const mcp = await startMcp(env);
    const call = mcp.call('get_fear_and_greed_latest').catch((error: Error) => error);
    await until(() => upstream.requests.length === 1);
    // The 429 is read and the mark undone at once; the wait before the retry is 5 s.
    await new Promise((resolve) => setTimeout(resolve, 500));
    process.kill(mcp.pid, 'SIGKILL');
    await call;
    await mcp.close().catch(() => {});
    expect(upstream.requests).toHaveLength(1);
    expect(await usage(env)).toMatchObject({ spent: 0, reserved: 0 });
  });

  it('killed once the retry reached the service: its estimate is charged', async () => {
    const { upstream, env } = await serverAt(budget);
    upstream.reply(FNG, rateLimited(1));
    const mcp = await startMcp(env);
    const call = mcp.call('get_fear_and_greed_latest').catch((error: Error) => error);
    await until(() => upstream.requests.length === 1);
    upstream.reply(FNG, { hang: true });
    await until(() => upstream.requests.length === 2);
    process.kill(mcp.pid, 'SIGKILL');
    await call;
    await mcp.close().catch(() => {});
    expect(await usage(env)).toMatchObject({ spent: ESTIMATE, reserved: 0 });
  });
});
