/**
 * Stale rather than nothing (SVC_STALE_MAX_SECONDS): when the service fails, an answer past its
 * freshness but within the bound stands in, saying how old it is and why; its `_meta.credits` is
 * what the failed request was charged (a timeout its estimate, an error answer nothing). A refusal
 * of the key never gets one, nor does an answer past the bound.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { moveClockAhead, restoreClock } from '../helpers/clock.js';
import { type FakeUpstream, startFakeUpstream } from '../helpers/fake-upstream.js';
import { startMcp } from '../helpers/in-process.js';
import { NOW } from '../helpers/now.js';
import { SECRET_KEY } from '../helpers/secret.js';
import type { Session } from '../helpers/session.js';
import { errorBody, okStatus } from '../helpers/upstream-shapes.js';

/** Refreshes every 15 s. */
const PATH = '/v3/fear-and-greed/historical';
const ANSWER = {
  status: okStatus,
  data: [{ timestamp: String(Date.parse(NOW) / 1000), value: 44, value_classification: 'Fear' }],
};

let upstream: FakeUpstream;
let mcp: Session;
let strict: Session;
beforeAll(async () => {
  upstream = await startFakeUpstream();
  const env = { SVC_API_KEY: SECRET_KEY, SVC_BASE_URL: upstream.url, SVC_TIMEOUT_MS: '1000' };
  [mcp, strict] = await Promise.all([
    startMcp({ ...env, SVC_STALE_MAX_SECONDS: '60' }),
    startMcp({ ...env, SVC_STALE_MAX_SECONDS: '0' }),
  ]);
});
afterAll(async () => {
  restoreClock();
  await Promise.all([mcp?.close(), strict?.close()]);
  await upstream?.close();
});

/** Each failure, what the stale answer says of it, and what it was charged (the estimate, 1, when no answer came). */
const FAILURES = [
  ['HTTP 503', { status: 503, body: errorBody(500, 'Service unavailable') }, 'failed (HTTP 503)', 0],
  [
    '429',
    { status: 429, body: errorBody(1011, 'IP rate limit'), headers: { 'retry-after': '30' } },
    '(429)',
    0,
  ],
  ['a timeout', { hang: true }, 'did not answer in time', 1],
] as const;

/** Each case has arguments of its own (`start`), so its cached answer is its own. */
const call = (session: Session, start: number) =>
  session.call('get_fear_and_greed_historical', { start, limit: 1 });

describe('stale answers', () => {
  it('stand in for each kind of service failure, saying so and what the failure cost; never for a refused key, nor when off', async () => {
    upstream.reply(PATH, { body: ANSWER });
    // Cases 1-3: the failures; 4: a refused key; 5: the server with SVC_STALE_MAX_SECONDS=0.
    for (const start of [1, 2, 3, 4]) expect((await call(mcp, start)).isError).toBeFalsy();
    expect((await call(strict, 5)).isError).toBeFalsy();
    // Freshness is 15 s, on the wall clock the cache reads: past it for every case.
    moveClockAhead(15_500);

    for (const [i, [name, reply, why, credits]] of FAILURES.entries()) {
      upstream.reply(PATH, reply);
      const before = upstream.requests.length;
      const result = await call(mcp, i + 1);
      expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
      expect(upstream.requests.length, name).toBeGreaterThan(before);
      expect(result.structuredContent, name).toMatchObject({ items: [{ value: 44 }] });
      expect(result._meta, name).toMatchObject({ stale: true, credits, cached: false });
      expect((result._meta as { age_seconds: number }).age_seconds, name).toBeGreaterThanOrEqual(15);
      expect(textOf(result), name).toContain('stale: the service ');
      expect(textOf(result), name).toContain(why);
    }

    upstream.reply(PATH, { status: 401, body: errorBody(1001, 'This API Key is invalid.') });
    const refused = await call(mcp, 4);
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).not.toContain('stale');

    upstream.reply(PATH, { status: 503, body: errorBody(500, 'Service unavailable') });
    expect((await call(strict, 5)).isError).toBe(true);

    // Past the bound (15 s fresh + 60 s stale), the same failure is an error.
    restoreClock();
    moveClockAhead(76_000);
    const tooOld = await call(mcp, 1);
    expect(tooOld.isError).toBe(true);
    expect(textOf(tooOld)).not.toContain('stale');
  });
});
