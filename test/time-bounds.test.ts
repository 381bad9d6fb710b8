/** The time rule: every bound a call meets, derived from SVC_TIMEOUT_MS as docs/reliability.md states it. */
import { describe, expect, it } from 'vitest';
import { RESERVATION_TTL_MS } from '../src/guard/ledger.js';
import { TIMEOUT_MS, timeBounds } from '../src/time-bounds.js';

describe('timeBounds', () => {
  it("the default: a request 10 s, a call's requests 20 s, a turn's wait 20 s, a claim 20 s", () => {
    expect(timeBounds(TIMEOUT_MS.default)).toEqual({
      attemptMs: 10_000,
      maxAttempts: 4,
      requestsMs: 20_000,
      turnWaitMs: 20_000,
      claimMs: 20_000,
    });
  });

  it('a slow service: every bound grows with the timeout, up to its maximum, and none caps it', () => {
    expect(timeBounds(60_000)).toMatchObject({
      attemptMs: 60_000,
      requestsMs: 120_000,
      turnWaitMs: 120_000,
      claimMs: 120_000,
    });
    expect(timeBounds(TIMEOUT_MS.max)).toMatchObject({
      attemptMs: 120_000,
      requestsMs: 240_000,
      turnWaitMs: 240_000,
    });
  });

  it("a fast service: the turn's wait stays at least 20 s, as it covers local work too", () => {
    expect(timeBounds(500)).toEqual({
      attemptMs: 500,
      maxAttempts: 4,
      requestsMs: 1_000,
      turnWaitMs: 20_000,
      claimMs: 1_000,
    });
  });

  it('a call under way at the longest timeout still holds its reservation: the ledger never counts it as gone', () => {
    const { turnWaitMs, requestsMs } = timeBounds(TIMEOUT_MS.max);
    expect(turnWaitMs + requestsMs).toBeLessThan(RESERVATION_TTL_MS);
  });
});
