/**
 * The one authenticated client every tool call goes through: one keep-alive dispatcher for the
 * process, the key in a header (never in a URL), a timeout per request, the caller's cancel signal,
 * and retries only where they can help, within the bounds time-bounds.ts derives from
 * SVC_TIMEOUT_MS.
 */

import type { Agent } from 'undici';
import { cpuTurns } from '../cpu-turns.js';
import { plainDecimal } from '../format/numbers.js';
import { formatDuration } from '../format/text.js';
import { UpstreamError } from './errors.js';
import { cancelledError, dispatchOnce, readResponse } from './request.js';

// Only undici's Agent, and only on first use: the package's entry point also loads fetch, WebSocket,
// the cache stores, the mocks and Node's own bundled undici, about 8 MB the server never uses, and
// the MCP `initialize` answer needs none of it. The module path is undici's own layout, not a public
// export: docs/decisions/015 says why, and test/dependencies/ fails when undici moves it.
let agentClass: Promise<typeof Agent> | undefined;
function loadAgent() {
  agentClass ??= import('undici/lib/dispatcher/agent.js').then((module) => module.default);
  return agentClass;
}

export interface UpstreamOptions {
  baseUrl: string;
  keyHeader: string;
  /** One request. */
  attemptMs: number;
  /** All of a call's requests, the waits between retries included. */
  requestsMs: number;
  maxAttempts: number;
}

export interface UpstreamResponse {
  body: unknown;
  /** `status.credit_count` as the service reported it, when it did. */
  creditCount: number | undefined;
  attempts: number;
  /** The body's size as it arrived: what handling it weighs (cpu-turns.ts). */
  bytes: number;
  /** The body as it arrived, when it holds nothing of the key (else `body` is redacted and this is absent). */
  raw?: Buffer;
}

export type QueryParams = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  /** The key this request is sent with. */
  apiKey: string;
  /** The caller's cancel signal. */
  signal?: AbortSignal;
  /** The W3C trace context the request carries, when traces are on. */
  traceparent?: string;
  /**
   * Told when the call waits to try again and nothing it sent so far may have been charged
   * (`unsent`), and before it sends again (`sending`, which may refuse by throwing): the ledger
   * then counts a call killed during the wait as never sent.
   */
  retries?: { unsent(): Promise<void>; sending(): Promise<void> };
}

const BACKOFF_BASE_MS = 200;
const BACKOFF_CAP_MS = 4_000;
/** A readiness check waits at most this long for the service. */
const REACHABLE_TIMEOUT_MS = 2_000;

export class UpstreamClient {
  private dispatcher: Agent | undefined;
  private readonly origin: string;
  /** The base URL's own path (e.g. `/api`), which every endpoint path follows. */
  private readonly basePath: string;

  constructor(private readonly options: UpstreamOptions) {
    const base = new URL(options.baseUrl);
    this.origin = base.origin;
    this.basePath = base.pathname.replace(/\/+$/, '');
  }

  /**
   * GET a path with query parameters; throws UpstreamError (with `attempts`, and `mayBeCharged` when
   * a request reached the service without an error answer coming back) when it cannot answer.
   */
  async get(
    path: string,
    params: QueryParams,
    { apiKey, signal, traceparent, retries }: RequestOptions,
  ): Promise<UpstreamResponse> {
    const target = `${this.basePath}${path}${queryString(params)}`;
    const deadline = Date.now() + this.options.requestsMs;
    let mayBeCharged = false;
    for (let attempt = 1; ; attempt++) {
      let sent = false;
      const onSent = () => {
        sent = true;
      };
      try {
        const answer = await this.once(target, apiKey, deadline, signal, onSent, traceparent);
        return { ...answer, attempts: attempt };
      } catch (caught) {
        const error = asUpstreamError(caught, this.origin, signal);
        // Only an error answer is known to be free; a request sent and then cut, timed out, lost or
        // answered with a 200 that could not be read may have been charged.
        if (sent && error.kind !== 'http') mayBeCharged = true;
        const wait =
          error.retryable && attempt < this.options.maxAttempts ? retryDelay(error, attempt) : undefined;
        if (wait === undefined || Date.now() + wait >= deadline - 50) {
          error.attempts = attempt;
          error.mayBeCharged = mayBeCharged;
          throw error;
        }
        // Nothing charged so far: the call waits as one never sent.
        if (!mayBeCharged) await retries?.unsent();
        // A cancel during the wait ends the call: with what its attempts so far may have cost.
        await sleep(wait, signal).catch((stopped: UpstreamError) => {
          stopped.attempts = attempt;
          stopped.mayBeCharged = mayBeCharged;
          throw stopped;
        });
        if (!mayBeCharged) await retries?.sending();
      }
    }
  }

  /** Load the HTTP stack now, in the background, so the first call does not wait for it. */
  warm(): void {
    void loadAgent();
  }

  async close(): Promise<void> {
    await this.dispatcher?.close();
  }

  /**
   * Resolves when the service answers HTTP at all (any status): a GET of the base address sent
   * without the key, which the service refuses for free. Rejects saying why it did not answer.
   */
  async reachable(): Promise<void> {
    try {
      await dispatchOnce(await this.agent(), {
        origin: this.origin,
        path: this.basePath || '/',
        method: 'GET',
        headers: { accept: 'application/json' },
        timeoutMs: Math.min(this.options.attemptMs, REACHABLE_TIMEOUT_MS),
      });
    } catch (caught) {
      throw new Error(asUpstreamError(caught, this.origin).message);
    }
  }

  private async agent(): Promise<Agent> {
    const AgentClass = await loadAgent();
    this.dispatcher ??= new AgentClass({
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 120_000,
      connections: 32,
    });
    return this.dispatcher;
  }

  private async once(
    path: string,
    apiKey: string,
    deadline: number,
    signal: AbortSignal | undefined,
    onSent: () => void,
    traceparent: string | undefined,
  ) {
    const dispatcher = this.dispatcher ?? (await this.agent());
    const { attemptMs, requestsMs } = this.options;
    const left = deadline - Date.now();
    // The last attempt may have less than a request's full time: then the call's whole allowance ran out.
    const last = left < attemptMs;
    const timeoutMs = last ? Math.max(1, left) : attemptMs;
    const allowed = () =>
      last ? `the ${seconds(requestsMs)} a call's requests may take` : seconds(attemptMs);
    const response = await dispatchOnce(dispatcher, {
      origin: this.origin,
      path,
      method: 'GET',
      headers: {
        [this.options.keyHeader]: apiKey,
        accept: 'application/json',
        ...(traceparent === undefined ? {} : { traceparent }),
      },
      timeoutMs,
      timeoutDetail: () => `The service did not answer within ${allowed()}`,
      signal,
      onSent,
    });
    // Joining and parsing a large body is heavy: it takes its turn (cpu-turns.ts).
    const bytes = response.chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    return cpuTurns.run(bytes, () => ({ ...readResponse(response, apiKey), bytes }));
  }
}

/** 10000 → "10 s", 120000 → "2 min", 150 → "0.2 s". */
function seconds(ms: number): string {
  return formatDuration(Number((ms / 1000).toFixed(1)));
}

/** `?a=1&b=x`, or nothing when every value is unset. */
function queryString(params: QueryParams): string {
  const query = new URLSearchParams();
  for (const key in params) {
    const value = params[key];
    if (value !== undefined) query.set(key, typeof value === 'number' ? plainDecimal(value) : String(value));
  }
  const search = query.toString();
  return search ? `?${search}` : '';
}

function asUpstreamError(caught: unknown, origin: string, signal?: AbortSignal): UpstreamError {
  if (caught instanceof UpstreamError) return caught;
  if (signal?.aborted) return cancelledError();
  const error = caught as { name?: string; code?: string; message?: string };
  if (error?.code === 'UND_ERR_HEADERS_TIMEOUT' || error?.code === 'UND_ERR_BODY_TIMEOUT') {
    return new UpstreamError('timeout', undefined, undefined, 'The service did not answer in time');
  }
  return new UpstreamError(
    'network',
    undefined,
    undefined,
    `The connection to the service at ${new URL(origin).host} failed (${error?.code ?? error?.name ?? 'error'})`,
  );
}

/** Milliseconds to wait before the next attempt: Retry-After if given, else jittered backoff. */
function retryDelay(error: UpstreamError, attempt: number): number {
  if (error.retryAfterSeconds !== undefined) return error.retryAfterSeconds * 1000;
  if (error.code === 1008) return (60 - new Date().getUTCSeconds()) * 1000;
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(cancelledError());
    }
    signal?.addEventListener('abort', abort, { once: true });
  });
}
