/**
 * A call that waits to try again after a request that cost nothing (the service's 429, free) is
 * not sent while it waits: a server killed then charges nothing for it. Its next attempt is marked
 * sent again before it goes: a server killed once that attempt reached the service charges its
 * estimate. With a budget and without one (where the reservation is written at the first attempt).
 * The ledger is read by a new process and compared with what the counting upstream received.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sqlite } from '../../src/guard/sqlite.js';
import { ESTIMATE, FNG, usage } from '../helpers/charging.js';
import { type Env, newStateDir } from '../helpers/cli.js';
import { type FakeUpstream, type Reply, startFakeUpstream } from '../helpers/fake-upstream.js';
import { SECRET_KEY } from '../helpers/secret.js';
import { type Session, spawnMcp } from '../helpers/session.js';
import { SQLITE as sqlite } from '../helpers/sqlite.js';
import { until } from '../helpers/until.js';
import { errorBody } from '../helpers/upstream-shapes.js';

const upstreams: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(upstreams.splice(0).map((u) => u.close()));
});

/** The service's per-minute limit: a 429 that charges nothing and asks for a wait of `seconds`. */
const rateLimited = (seconds: number): Reply => ({
  status: 429,
  body: errorBody(1008, "You've exceeded your API Key's HTTP request rate limit."),
  headers: { 'retry-after': String(seconds) },
});

/** The ledger's reservations, as a new connection reads them: whether each is marked sent. */
function sentMarks(env: Env): boolean[] {
  const db = (sqlite as Sqlite).open(join(env.SVC_STATE_DIR as string, 'ledger.sqlite'));
  try {
    return db
      .prepare('SELECT sent FROM reservations')
      .all()
      .map((row) => Number(row.sent) === 1);
  } finally {
    db.close();
  }
}

/** A server at a counting upstream that first answers `first`, with one call to it under way. */
async function callUnderWay(budget: string | undefined, first: Reply) {
  const upstream = await startFakeUpstream();
  upstreams.push(upstream);
  upstream.reply(FNG, first);
  const env: Env = {
    SVC_API_KEY: SECRET_KEY,
    SVC_BASE_URL: upstream.url,
    SVC_CACHE: 'off',
    SVC_STATE_DIR: newStateDir(),
    ...(budget === undefined ? {} : { SVC_CREDIT_BUDGET: budget }),
  };
  const mcp = await spawnMcp(env);
  const call = mcp.call('get_fear_and_greed_latest').catch((error: Error) => error);
  await until(() => upstream.requests.length === 1);
  return { upstream, env, mcp, call };
}

async function kill(mcp: Session, call: Promise<unknown>): Promise<void> {
  process.kill(mcp.pid, 'SIGKILL');
  await call;
  await mcp.close().catch(() => {});
}

describe.runIf(sqlite !== undefined).each([
  ['with a budget', '100'],
  ['without a budget', undefined],
])('a call waiting to retry, %s', (_, budget) => {
  it('killed during the wait after a free 429: nothing is charged', async () => {
    const { upstream, env, mcp, call } = await callUnderWay(budget, rateLimited(10));
    // The 429 read, the mark is undone on the ledger; the wait before the retry is 10 s (within the 20 s a call's requests may take).
    await until(() => {
      const marks = sentMarks(env);
      return marks.length > 0 && marks.every((sent) => !sent);
    });
    await kill(mcp, call);
    expect(upstream.requests).toHaveLength(1);
    expect(await usage(env)).toMatchObject({ spent: 0, reserved: 0 });
  });

  it('killed once the retry reached the service: its estimate is charged', async () => {
    const { upstream, env, mcp, call } = await callUnderWay(budget, rateLimited(1));
    upstream.reply(FNG, { hang: true });
    await until(() => upstream.requests.length === 2);
    await kill(mcp, call);
    expect(await usage(env)).toMatchObject({ spent: ESTIMATE, reserved: 0 });
  });
});
