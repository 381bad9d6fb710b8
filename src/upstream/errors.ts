import { FIND_ASSET } from '../messages.js';
import { TIMEOUT_MS } from '../time-bounds.js';

/**
 * Upstream failures as one error type that keeps the service's code and message and says what to
 * do about it (the table in docs/service.md, "Errors").
 */

export type FailureKind = 'http' | 'network' | 'timeout' | 'malformed' | 'too_large' | 'cancelled';

export class UpstreamError extends Error {
  override name = 'UpstreamError';
  /** How many attempts the client made before giving up. */
  attempts = 1;
  /**
   * Whether one of the attempts reached the service and no error answer came back (it was cut,
   * timed out, lost, or answered with a 200 that could not be read): the service may have charged it.
   */
  mayBeCharged = false;
  constructor(
    readonly kind: FailureKind,
    /** HTTP status, when there was an answer. */
    readonly status: number | undefined,
    /** The service's `status.error_code`, when it sent one. */
    readonly code: number | undefined,
    /** The service's own `status.error_message`, or what went wrong on the way. */
    readonly detail: string,
    /** Seconds the service asked us to wait (Retry-After). */
    readonly retryAfterSeconds?: number,
  ) {
    super(detail);
  }

  /** Whether trying again can help: rate limits per minute or per IP, server errors, the network. */
  get retryable(): boolean {
    if (this.kind === 'network' || this.kind === 'timeout') return true;
    if (this.kind !== 'http' || this.status === undefined) return false;
    if (this.status === 429) return this.code === 1008 || this.code === 1011;
    return this.status >= 500;
  }
}

export interface ErrorContext {
  /** Plans that include the endpoint, for a 1006 answer. */
  plans: readonly string[];
  /** SVC_PLAN's plan, by its title, when it is set. */
  plan?: string;
  /** SVC_TIMEOUT_MS: raising it helps a timeout only while it is below its maximum. */
  timeoutMs: number;
  /** The key came with the request (HTTP), not from SVC_API_KEY, which then cannot help. */
  keyFromCaller: boolean;
  /**
   * The parameters the tool takes: the service's advice to send one the tool does not take (its
   * `skip_invalid=true`) is left out, so that no message leads to a refused call.
   */
  takes?: ReadonlySet<string>;
  now?: Date;
}

/**
 * One message for the model: what happened (with the upstream code and message) and what to do,
 * each said once, naming only settings that would help.
 */
export function describeUpstreamError(error: UpstreamError, context: ErrorContext): string {
  const now = context.now ?? new Date();
  const advised = context.takes && !context.takes.has('skip_invalid');
  const detail = (
    advised ? error.detail.replace(/[;,]?\s*send skip_invalid=true[^.;]*/i, '') : error.detail
  ).replace(/[.\s]+$/, '');
  // A refused parameter: the service's message names it and says why, which is all there is to say.
  const refused = (error.status === 200 ? error.code : error.status) === 400 && detail !== '';
  const origin =
    error.status === undefined || refused
      ? detail
      : `The service answered HTTP ${error.status}${error.code !== undefined ? ` (error ${error.code})` : ''}: ${detail || 'no message'}`;
  const tried = error.attempts > 1 ? ` (after ${error.attempts} attempts)` : '';
  const next = advice(error, context, now);
  return `${origin}${tried}.${next ? ` ${next}` : ''}`;
}

function advice(error: UpstreamError, context: ErrorContext, now: Date): string {
  switch (error.kind) {
    case 'timeout':
      return context.timeoutMs < TIMEOUT_MS.max
        ? `Try again shortly; if the service is this slow, raise SVC_TIMEOUT_MS (now ${context.timeoutMs}, at most ${TIMEOUT_MS.max}).`
        : 'The service is slower than the longest timeout allowed; try again later.';
    case 'network':
      return 'The service could not be reached; check SVC_BASE_URL and the network, then try again.';
    case 'malformed':
      return 'The answer could not be read; try again later.';
    case 'too_large':
      return 'Ask for less in one call (a smaller limit or count, fewer ids or convert currencies).';
    case 'cancelled':
      return '';
  }
  switch (error.code) {
    case 1001:
      return context.keyFromCaller
        ? 'The API key sent with this request is not valid: send a valid key.'
        : 'The API key is not valid: check SVC_API_KEY.';
    case 1002:
      return context.keyFromCaller
        ? 'The service did not find the key: set SVC_API_KEY_HEADER to the header it expects.'
        : 'No API key was sent: set SVC_API_KEY (and SVC_API_KEY_HEADER if the service expects another header).';
    case 1003:
      return 'The API key must be activated before use (payment required).';
    case 1004:
      return "The key's plan has expired: renew it.";
    case 1005:
      return context.keyFromCaller
        ? 'This call needs an API key: send a valid key with the request.'
        : 'This call needs an API key: set SVC_API_KEY.';
    case 1006: {
      // The plan set has the endpoint: what it lacks (how far back its history reaches) is in the
      // service's own words, and setting SVC_PLAN would change nothing.
      if (context.plan !== undefined && context.plans.includes(context.plan)) return '';
      // Each fact once: the service's own message may already name the plans.
      const named = context.plans.length > 0 && context.plans.every((plan) => error.detail.includes(plan));
      const plans = named ? '' : `It is available on: ${context.plans.join(', ')}. `;
      return `${plans}Set SVC_PLAN to your plan to hide the tools it lacks.`;
    }
    case 1007:
      return 'The API key has been disabled.';
    case 1008:
      return `The per-minute request limit was reached; retry in ${error.retryAfterSeconds ?? secondsToNextMinute(now)} s (the limit resets each UTC minute).`;
    case 1009:
      return `The daily credit limit is used up; calls work again after ${nextUtcDay(now)}.`;
    case 1010:
      return `The monthly credit limit is used up; calls work again after ${nextUtcMonth(now)}.`;
    case 1011:
      return `Too many requests from this IP address; retry in ${error.retryAfterSeconds ?? 60} s.`;
  }
  // A 200 may carry an error code: the code says what kind of failure it is.
  const status = error.status === 200 ? error.code : error.status;
  if (status === 400) {
    // The service's own advice names its map endpoint; the tool that does that job is search.
    if (/Invalid value for "(id|slug|symbol)"/.test(error.detail)) {
      return `${FIND_ASSET}.`;
    }
    return 'Fix the parameter the message names and call again.';
  }
  if (status === 404) return 'The service does not know this path: check SVC_BASE_URL.';
  if (status !== undefined && status >= 500) return 'The service failed; try again in a minute.';
  return 'Try again later.';
}

function secondsToNextMinute(now: Date): number {
  return 60 - now.getUTCSeconds();
}

function nextUtcDay(now: Date): string {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return `${new Date(next).toISOString().slice(0, 10)} 00:00 UTC`;
}

function nextUtcMonth(now: Date): string {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return `${new Date(next).toISOString().slice(0, 10)} 00:00 UTC`;
}
