/**
 * The one rule for how long a tool call may take. Every wait a call can meet is derived here from
 * SVC_TIMEOUT_MS (T), so that raising T for a slow service raises every bound that could cut its
 * answer short, and nothing else caps it:
 *
 * - one request to the service: T;
 * - a call's requests, retries and the waits between them included: 2T, at most 4 requests (a
 *   retry that could not start before then is not made);
 * - a wait for one of the limiter's turns: 2T, at least 20 s, as a turn also covers reading and
 *   normalising answers, local work that T does not measure;
 * - a claim on an identical request made by another replica (Redis), and the wait on it: 2T, as
 *   long as the requests it stands for may take; past it the waiting replica fetches for itself.
 *
 * So a call takes at most 2T + max(2T, 20 s) + 2T (60 s by default), plus the Redis round trips
 * (2 s each). Over HTTP, SVC_HTTP_REQUEST_TIMEOUT_MS also bounds the whole request. A credit
 * reservation is held through the turn's wait and the requests (8 min at T's maximum), within the
 * ledger's RESERVATION_TTL_MS.
 */

/** SVC_TIMEOUT_MS's range and default. */
export const TIMEOUT_MS = { min: 100, max: 120_000, default: 10_000 } as const;

/** Requests a call may make: the first and up to three retries. */
const MAX_ATTEMPTS = 4;
/** The shortest wait for a turn, whatever T. */
const MIN_TURN_WAIT_MS = 20_000;

export interface TimeBounds {
  /** One request to the service. */
  attemptMs: number;
  maxAttempts: number;
  /** All of a call's requests, with the waits between retries. */
  requestsMs: number;
  /** A wait for one of the limiter's turns. */
  turnWaitMs: number;
  /** A claim on a request shared across replicas, and the wait on it. */
  claimMs: number;
}

export function timeBounds(timeoutMs: number): TimeBounds {
  const requestsMs = 2 * timeoutMs;
  return {
    attemptMs: timeoutMs,
    maxAttempts: MAX_ATTEMPTS,
    requestsMs,
    turnWaitMs: Math.max(requestsMs, MIN_TURN_WAIT_MS),
    claimMs: requestsMs,
  };
}
