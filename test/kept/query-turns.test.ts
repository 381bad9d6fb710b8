/**
 * Queries asked at once run one at a time, each in its turn. Tried as several agents querying at
 * once would: 14 queries of about half a second each, with the time bound at 5 s, and ten of them
 * were refused as past their time bound, which counted their wait behind the others. Now a query's
 * time bound runs from its start; its wait for a turn has a bound of its own (six times the time
 * bound), past which it is answered busy; and at most 16 wait at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newStateDir, textOf } from '../helpers/cli.js';
import { rawRequest } from '../helpers/http.js';
import { startHttpServer, startMcp } from '../helpers/in-process.js';
import { sample } from '../helpers/metrics.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import { connectHttp, type HttpServer, type Session } from '../helpers/session.js';
import { until } from '../helpers/until.js';

const KEY_HEADER = 'X-SVC_PRO_API_KEY';

/** A count over `rows` numbers made by recursion: about a tenth of a second for 200,000. */
const counting = (rows: number) =>
  `WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < ${rows}) SELECT count(*) FROM r`;
/** A recursion without end: stopped at the time bound. */
const RUNAWAY = 'WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) FROM r';
const TIME_BOUND = /^The query was stopped at its time bound/;
/**
 * A search that one call of SQLite's instr() makes, past the reach of its progress handler: a 4 MB
 * needle tried at each of 16 million places. Only ending the engine's thread stops it.
 */
const UNSTOPPABLE =
  "WITH t(h) AS (SELECT hex(zeroblob(8000000))) SELECT instr(h, substr(h, 1, 4000000) || '1') FROM t";

let sandbox: Sandbox;
/** Queries stopped at 1 s; at 200 ms (a turn's wait, 1.2 s). */
let second: Session;
let fifth: Session;
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
  const env = (timeoutMs: number) =>
    sandboxEnv(sandbox, 'sandbox-enterprise', {
      SVC_STATE_DIR: newStateDir(),
      SVC_QUERY_TIMEOUT_MS: String(timeoutMs),
    });
  [second, fifth] = await Promise.all([startMcp(env(1_000)), startMcp(env(200))]);
  // The engines' threads started and their SQLite warmed, so that a count takes its usual time.
  for (const server of [second, fifth]) await server.call('query_data', { sql: counting(50_000) });
});
afterAll(async () => {
  await Promise.all([second?.close(), fifth?.close()]);
  await sandbox?.close();
});

const all = (server: Session, sqls: string[]) =>
  Promise.all(sqls.map((sql) => server.call('query_data', { sql, format: 'json' })));

describe('queries asked at once', () => {
  it('each have their time bound from their start, not counting their wait', async () => {
    const sizes = Array.from({ length: 12 }, (_, i) => 200_000 + i);
    const answers = await all(second, sizes.map(counting));
    for (const [i, answer] of answers.entries()) {
      expect(answer.isError, textOf(answer)).toBeFalsy();
      expect((answer.structuredContent as { rows: unknown[][] }).rows).toEqual([[sizes[i]]]);
      expect(answer._meta).toMatchObject({ credits: 0 });
    }
  });

  it('wait for a turn at most six times the time bound, then are answered busy, free', async () => {
    const answers = await all(fifth, Array(10).fill(RUNAWAY));
    const busy =
      'The query engine is busy (other queries held it for the 1.2 s a query waits; retry in a moment).';
    // Each runs 200 ms or a little more on a busy machine: the first ones start within 1.2 s, the
    // last ones cannot, and each is one or the other.
    const texts = answers.map(textOf);
    for (const text of texts.slice(0, 2)) expect(text).toMatch(TIME_BOUND);
    for (const text of texts.slice(-2)) expect(text).toBe(busy);
    for (const text of texts) expect(TIME_BOUND.test(text) || text === busy, text).toBe(true);
    for (const answer of answers) expect(answer._meta).toMatchObject({ credits: 0 });
  });

  it("behind one only the thread's end stops, are answered by the thread that follows", async () => {
    const runaway = second.call('query_data', { sql: UNSTOPPABLE });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const behind = await all(second, [counting(1_000), counting(1_001)]);
    expect(textOf(await runaway)).toMatch(TIME_BOUND);
    for (const [i, answer] of behind.entries()) {
      expect(answer.isError, textOf(answer)).toBeFalsy();
      expect((answer.structuredContent as { rows: unknown[][] }).rows).toEqual([[1_000 + i]]);
    }
  });
});

describe('owners querying at once', () => {
  let server: HttpServer;
  let stranger: Session;
  let other: Session;
  beforeAll(async () => {
    const env = sandboxEnv(sandbox, 'sandbox-enterprise', {
      SVC_STATE_DIR: newStateDir(),
      SVC_QUERY_TIMEOUT_MS: '300',
    });
    server = await startHttpServer(env);
    const connect = (key: string) => connectHttp(server, 'v2', { [KEY_HEADER]: key });
    [stranger, other] = [await connect('sandbox-startup'), await connect('sandbox-basic')];
    await other.call('query_data', { sql: counting(1_000) });
  });
  afterAll(async () => {
    await Promise.all([stranger?.close(), other?.close()]);
    await server?.stop();
  });

  const mineWaiting =
    'The query engine is busy (12 of your queries are waiting already; retry when one is answered).';

  it("take turns: one owner's runaways do not hold another's query past its wait", async () => {
    // Each runaway holds the engine for its 300 ms; a turn's wait is 1.8 s.
    const theirs = all(stranger, Array(15).fill(RUNAWAY));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const mine = await other.call('query_data', { sql: counting(2_000), format: 'json' });
    expect(mine.isError, textOf(mine)).toBeFalsy();
    expect((mine.structuredContent as { rows: unknown[][] }).rows).toEqual([[2_000]]);
    // Twelve of theirs wait at most, the one running counted: of fifteen, three are refused when
    // all arrive within the first's 300 ms, fewer when a loaded machine spreads them past it (the
    // exact twelve is the next test's, which holds the engine while they arrive).
    const texts = (await theirs).map(textOf);
    const refused = texts.filter((t) => t === mineWaiting).length;
    expect(refused).toBeGreaterThanOrEqual(1);
    expect(refused).toBeLessThanOrEqual(3);
    for (const text of texts)
      expect(text, text).toMatch(/^The query (was stopped at its time bound|engine is busy)/);
  });

  /** The server's calls in flight, and its counts of query_data's busy refusals and of its calls refused for their input. */
  const figures = async () => {
    const text = (await rawRequest(`${server.origin}/metrics`, { method: 'GET' })).text;
    return {
      inFlight: sample(text, 'svc_mcp_tool_calls_in_flight') ?? 0,
      busy: sample(text, 'svc_mcp_refusals_total', { reason: 'busy' }) ?? 0,
      invalid: sample(text, 'svc_mcp_tool_calls_total', { tool: 'query_data', outcome: 'invalid' }) ?? 0,
    };
  };

  it('wait 16 at most, 12 of one owner: more are answered busy at once', async () => {
    // The test before may leave one of this owner's runaways running past its answer (answered busy
    // as it started, it runs its time), which counts as one of the owner's 12: a query of theirs
    // answered first is answered after it.
    await stranger.call('query_data', { sql: 'SELECT 1 AS one' });
    const before = await figures();
    // A runaway only the thread's end stops holds the engine for 1.3 s while the rest are asked:
    // asked first, and in the server before the others are sent, so that none of them runs before it.
    const runaway = stranger.call('query_data', { sql: UNSTOPPABLE, format: 'json' });
    await until(async () => (await figures()).inFlight >= 1);
    const quick = Array.from({ length: 13 }, () =>
      stranger.call('query_data', { sql: 'SELECT 1 AS one', format: 'json' }),
    );
    const theirs = [runaway, ...quick];
    // Their thirteenth waiting is answered busy at once: all fourteen have then reached the queue,
    // with no fixed pause that a busy machine could outlast.
    await new Promise((resolve) => {
      for (const call of quick) void call.then((answer) => textOf(answer) === mineWaiting && resolve(answer));
    });
    const mine = await all(other, Array(6).fill('SELECT 1 AS one'));
    const full = 'The query engine is busy (16 queries are waiting already; retry in a moment).';
    expect(mine.map(textOf).filter((t) => t === full)).toHaveLength(2);
    const texts = [...mine, ...(await Promise.all(theirs))].map(textOf);
    expect(texts.filter((t) => t === mineWaiting)).toHaveLength(2);
    // The operator sees each busy engine as a refusal for being busy, not as a call's bad input.
    const after = await figures();
    const busy = texts.filter((t) => t.startsWith('The query engine is busy')).length;
    expect(after.busy - before.busy).toBe(busy);
    expect(after.invalid - before.invalid).toBe(texts.filter((t) => TIME_BOUND.test(t)).length);
  });
});
