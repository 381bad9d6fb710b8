/**
 * What the pipeline reports about each call, for whoever listens (metrics, logs): one event when a
 * call begins, one when it ends, one per upstream request and one per charge. Listeners see tool
 * names, outcomes, credits and times; never argument values and never the key (the account is a hash).
 */

/** How a call ended; `asked`: it went back to the client with a question (2026-07-28), and its retry is the call. */
export const CALL_OUTCOMES = ['ok', 'invalid', 'refused', 'error', 'cancelled', 'asked'] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];
/**
 * Why a call was refused before anything was sent: over the per-call limit or the budget, the ledger
 * unusable, the server stopping, no key, no turn in time, not confirmed by the person, over the
 * max_credits of the script it was made in, or an answer larger than one answer may be read at.
 */
export const REFUSAL_REASONS = [
  'per_call_limit',
  'budget',
  'ledger',
  'stopping',
  'no_key',
  'busy',
  'not_confirmed',
  'script_limit',
  'too_large',
  'plan_history',
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];
/** Where an answer came from: the service, the cache, another identical call, a stale answer standing in for a failed service, or the server itself. */
export type AnswerSource = 'upstream' | 'cache' | 'joined' | 'stale' | 'stored' | 'local';

export interface CallEvent {
  tool: string;
  outcome: CallOutcome;
  /** With `refused`: why (REFUSAL_REASONS). */
  reason?: RefusalReason;
  /**
   * What the call's own requests were charged by the time it ended, whatever its outcome (a call
   * that leaves a request shared with identical calls before it settles is told 0: the charge
   * event counts it).
   */
  credits: number;
  via?: AnswerSource;
  durationMs: number;
  /** A hash of the key the call used. */
  account?: string;
  /** With sign-in: a hash of the person's subject, never the subject or the token. */
  person?: string;
}

export interface UpstreamEvent {
  tool: string;
  path: string;
  durationMs: number;
  ok: boolean;
  /** HTTP status, when the service answered. */
  status?: number;
}

/**
 * A request this process sent was charged, once it is settled: what the service reported, or the
 * estimate when no answer came (the ledger's own figure, whatever became of the calls waiting on it).
 */
export interface ChargeEvent {
  tool: string;
  credits: number;
}

/** A call has begun (for a count of calls in flight). */
export interface CallStart {
  tool: string;
}

export interface CallObserver {
  start?(event: CallStart): void;
  call?(event: CallEvent): void;
  upstream?(event: UpstreamEvent): void;
  charge?(event: ChargeEvent): void;
}

/** Observers are told synchronously; one that throws never breaks a call. */
export function notify<K extends keyof CallObserver>(
  observers: readonly CallObserver[],
  kind: K,
  event: Parameters<NonNullable<CallObserver[K]>>[0],
): void {
  for (const observer of observers) {
    try {
      (observer[kind] as ((e: typeof event) => void) | undefined)?.(event);
    } catch {
      // an observer's fault is its own
    }
  }
}
