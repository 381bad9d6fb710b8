/**
 * An endpoint's data for a call: a cache hit, or a join of an identical call in flight (both free);
 * else the credits estimated and reserved, and in the limiter's turn the request marked sent,
 * sent and normalised, whole; the reservation then settles by how the call ended. A service that
 * fails has the last answer stand in, within SVC_STALE_MAX_SECONDS.
 */

import { cacheKey } from '../cache/key.js';
import type { ServiceAnswer } from '../cache/result-format.js';
import type { Fetched, Open } from '../cache/shared.js';
import { type CacheEntry, LARGEST_CACHED_BYTES } from '../cache/store.js';
import { cpuTurns } from '../cpu-turns.js';
import { formatWhole } from '../format/numbers.js';
import { accountOf } from '../guard/accounts.js';
import type { Reservation } from '../guard/guard.js';
import { estimateCredits } from '../kit/credits.js';
import { type Endpoint, historyRefusal, type Plan } from '../kit/index.js';
import { notify } from '../ops/events.js';
import { traced } from '../ops/telemetry.js';
import type { DataSource } from '../services/data-source.js';
import type { Services } from '../services/index.js';
import type { QueryParams, RequestOptions, UpstreamResponse } from '../upstream/client.js';
import { UpstreamError } from '../upstream/errors.js';
import { MAX_ANSWER_BYTES } from '../upstream/request.js';
import type { CreditCap } from './cap.js';
import type { CallContext } from './context.js';
import { RefusedCall, unaskedRefusal } from './refused.js';

/**
 * A call's context as its fetches see it, once the call is confirmed (call/confirmation.ts): told
 * what each request the call sent was charged, as it settles.
 */
export interface FetchContext extends Omit<CallContext, 'confirm'> {
  onCharge?: (credits: number) => void;
  /** The tool the person called, under which the ledger books what its requests cost. */
  tool?: string;
  /** A request estimated at this or more is refused: the person was not asked about it. */
  unaskedFrom?: number;
  /** The max_credits of the script the call is made in: each request is held against it. */
  cap?: CreditCap;
}

/**
 * The call's checked parameters with what the tool fills in itself (a series' count from its time
 * range): what is cached, estimated and sent.
 */
export function completed(
  endpoint: Endpoint,
  params: Record<string, unknown>,
  now: number,
): Record<string, unknown> {
  return endpoint.pages?.complete?.(params, now) ?? params;
}

/** An endpoint's data for a call, from the cache, a joined call or the service, with where it came from. */
export interface EndpointData extends Fetched {
  account: string;
  sandbox: boolean;
  /** The cache's key of its request: where a large answer's kept result is noted (SharedCache.refer). */
  key: string;
  /** For a stale answer: how the service failed. */
  staleBecause?: string;
}

/**
 * The service's answer as it was sent, when `whole` is that one answer's data, unchanged: what a
 * kept result stores in its place (docs/decisions/018-kept-as-sent.md).
 */
export function answerAsSent(fetches: readonly EndpointData[], whole: unknown): ServiceAnswer | undefined {
  const [fetched, ...more] = fetches;
  return fetched !== undefined && more.length === 0 && fetched.data === whole ? fetched.answer : undefined;
}

/**
 * The endpoint's structured data for these (already checked) parameters, through the cache, the
 * guard and the client. Local tools use it too (search reads the cached cryptocurrency map).
 */
export async function fetchEndpoint(
  services: Services,
  endpoint: Endpoint,
  checked: Record<string, unknown>,
  context: FetchContext,
): Promise<EndpointData> {
  const params = completed(endpoint, checked, Math.floor(services.now() / 1000));
  const source = await services.source();
  const apiKey = context.apiKey ?? source.apiKey;
  if (apiKey === undefined) {
    throw new RefusedCall(
      'No API key: send your key for the service in the key header with each request.',
      'no_key',
    );
  }
  const account = accountOf(apiKey);
  const key = cacheKey(endpoint.name, account, params);
  const ttlMs = endpoint.refreshSeconds * 1000;
  const open = openKept(services, endpoint);
  try {
    const fetched = await traced(
      services.telemetry,
      'svc.cache',
      { 'gen_ai.tool.name': endpoint.name },
      async (span) => {
        const answer = await services.cache.fetch(
          key,
          ttlMs,
          context.signal,
          (signal) =>
            requestUpstream(services, source, endpoint, params, {
              apiKey,
              account,
              signal,
              unaskedFrom: context.unaskedFrom,
              cap: context.cap,
              person: context.person,
              personLimit: context.personLimit,
              personLeft: () => context.signal?.aborted === true,
              onCharge: context.onCharge,
              tool: context.tool ?? endpoint.name,
            }),
          open,
        );
        span?.setAttribute('svc.cache.hit', answer.via !== 'upstream');
        span?.setAttribute('svc.answer.via', answer.via);
        return answer;
      },
    );
    if (fetched.via !== 'upstream')
      services.guard.recordHit(account, context.tool ?? endpoint.name, fetched.credits);
    return { ...fetched, account, sandbox: source.sandbox, key };
  } catch (error) {
    // The service failed, not the call: the last answer, within SVC_STALE_MAX_SECONDS, stands in.
    const failure = context.signal?.aborted ? undefined : serviceFailure(error);
    const stale = failure ? await services.cache.stale(key, ttlMs) : undefined;
    if (!stale) throw error;
    return { ...stale, via: 'stale', staleBecause: failure, account, sandbox: source.sandbox, key };
  }
}

/**
 * A large answer's cache entry read: the data of the kept result it names, normalised again from
 * the service's bytes; none when that result is gone. Like any cache entry it serves the account's
 * calls, whoever's result it is: each keeps its answer as its own table (call/paging.ts).
 */
function openKept(services: Services, endpoint: Endpoint): Open {
  return async ({ storedAs, fetchedAt, credits }) => {
    if (storedAs === undefined) return undefined;
    const result = await services.results.get(storedAs.id, storedAs.owner).catch(() => undefined);
    if (result === undefined || result.tool !== endpoint.name || result.fetchedAt !== fetchedAt)
      return undefined;
    return { data: result.data, fetchedAt, credits, ...(result.answer ? { answer: result.answer } : {}) };
  };
}

/** How the service failed, in a few words, when a stale answer may stand in: not for a refusal of the key or the call. */
function serviceFailure(error: unknown): string | undefined {
  if (!(error instanceof UpstreamError)) return undefined;
  if (error.kind === 'timeout') return 'did not answer in time';
  if (error.kind === 'network') return 'could not be reached';
  if (error.kind === 'http' && error.status === 429) return 'refused more requests for now (429)';
  if (error.kind === 'http' && (error.status ?? 0) >= 500) return `failed (HTTP ${error.status})`;
  return undefined;
}

/** The most bytes the answer to these (completed) parameters takes: 0 for an endpoint with no pages. */
function expectedAnswerBytes(endpoint: Endpoint, params: Record<string, unknown>, now: number): number {
  return endpoint.pages ? endpoint.credits.maxItems(params, now) * endpoint.pages.recordBytes(params) : 0;
}

/**
 * Why a request is not sent when its answer may be larger than the client reads
 * (MAX_ANSWER_BYTES): the service would charge it, and nothing of it could be shown. Undefined when
 * it fits. `now` is Unix seconds.
 */
export function tooLargeRefusal(
  endpoint: Endpoint,
  params: Record<string, unknown>,
  now: number,
): string | undefined {
  const bytes = expectedAnswerBytes(endpoint, params, now);
  if (bytes <= MAX_ANSWER_BYTES || endpoint.pages === undefined) return undefined;
  const fits = Math.floor(MAX_ANSWER_BYTES / endpoint.pages.recordBytes(params));
  const most = MAX_ANSWER_BYTES / 1024 / 1024;
  return `Refused before sending: the answer to this call may take up to ${formatWhole(Math.ceil(bytes / 1e6))} MB, more than the ${most} MiB one answer may be read at; the service would charge it and none of it could be shown. Nothing was charged. Ask for at most ${formatWhole(fits)} records in one call (fewer ids or convert currencies, a smaller count or limit), and the rest in further calls.`;
}

/**
 * Why a request is not sent at all, free: its answer may be larger than the client reads
 * (tooLargeRefusal), or it reaches back further than SVC_PLAN's history. Undefined when it may go.
 */
export function refusalBeforeSending(
  endpoint: Endpoint,
  params: Record<string, unknown>,
  now: number,
  plan: Plan | undefined,
): { message: string; reason: 'too_large' | 'plan_history' } | undefined {
  const tooLarge = tooLargeRefusal(endpoint, params, now);
  if (tooLarge !== undefined) return { message: tooLarge, reason: 'too_large' };
  const reach = plan === undefined ? undefined : endpoint.reach?.(params, now);
  const past = reach === undefined || plan === undefined ? undefined : historyRefusal(reach, plan, now);
  return past === undefined ? undefined : { message: past, reason: 'plan_history' };
}

/** Who makes a request to the service, and how their call ends. */
interface UpstreamCall {
  apiKey: string;
  account: string;
  signal: AbortSignal;
  unaskedFrom?: number;
  cap?: CreditCap;
  person?: string;
  personLimit?: CallContext['personLimit'];
  /** The call that made the request was cancelled: it goes on for the identical calls that joined it. */
  personLeft?: () => boolean;
  onCharge?: FetchContext['onCharge'];
  /** The tool the person called: what the request costs is booked under it. */
  tool: string;
}

/**
 * An answer past the cache's bound is kept as the service sent it (cache/result-format.ts): its
 * bytes go with its data, which no cache entry then holds.
 */
function keptAsSent(answer: UpstreamResponse, nowMs: number): { answer?: ServiceAnswer } {
  return answer.raw !== undefined && answer.raw.length > LARGEST_CACHED_BYTES
    ? { answer: { bytes: answer.raw, nowMs } }
    : {};
}

/**
 * Estimate and reserve; then, in one of the limiter's turns, send and normalise; then end the
 * reservation by how the call ended. The turn covers what holds an answer in memory and the mark
 * that the request is sent (which must be on the ledger before the request goes), not the
 * reservation's and the settling's writes, which many calls share (without a budget the
 * reservation is written at the mark, as one write).
 */
async function requestUpstream(
  services: Services,
  source: DataSource,
  endpoint: Endpoint,
  params: Record<string, unknown>,
  call: UpstreamCall,
): Promise<CacheEntry> {
  const { guard } = services;
  const now = Math.floor(services.now() / 1000);
  const estimate = estimateCredits(endpoint.credits, params, now);
  const expectedBytes = expectedAnswerBytes(endpoint, params, now);
  const refused = refusalBeforeSending(endpoint, params, now, services.config.plan);
  if (refused !== undefined) throw new RefusedCall(refused.message, refused.reason);
  // A script's cap first: within it, a request is never one its person had to be asked about.
  call.cap?.hold(estimate);
  let reservation: Reservation;
  try {
    if (call.unaskedFrom !== undefined && estimate >= call.unaskedFrom)
      throw unaskedRefusal(estimate, call.unaskedFrom);
    reservation = await reserve(services, endpoint, params, estimate, call);
  } catch (error) {
    call.cap?.end(estimate, 0);
    throw error;
  }
  let charged: number | undefined;
  try {
    // On the ledger before a request can reach the service, and only once the call has its turn; a
    // wait to try again after a request that cost nothing is not sent (client.ts).
    const sending = async () => {
      if (call.person !== undefined && call.personLeft?.()) await guard.dropPerson(reservation);
      const refused = await guard.markSent(reservation);
      if (refused) throw new RefusedCall(refused.message, refused.reason);
    };
    const retries = { sending, unsent: () => guard.unmarkSent(reservation) };
    const kept = await services.limiter.run(
      async () => {
        await sending();
        const answer = await send(services, source, endpoint, params, { ...call, retries });
        const credits = answer.creditCount ?? estimate;
        charged = credits;
        // Whole: every record paid for is kept, and the answer shows it a page at a time; each page
        // is checked against the output schema as it is shown (call/paging.ts).
        const { data, nowMs } = await cpuTurns.run(answer.bytes, () => {
          const at = services.now();
          return { data: endpoint.normalise(answer.body, params, at), nowMs: at };
        });
        return { data, credits, ...keptAsSent(answer, nowMs) };
      },
      call.signal,
      expectedBytes,
    );
    return { ...kept, fetchedAt: Date.now() };
  } catch (error) {
    // Sent and never answered (cancelled, cut by a timeout, lost, the server stopping): the service
    // may have charged it, so it costs its estimate. Retries are one call, charged once.
    if (charged === undefined && error instanceof UpstreamError && error.mayBeCharged) charged = estimate;
    throw error;
  } finally {
    // Answered (an answer of an unexpected shape too): what the service charged. Never sent, or
    // answered with an error: nothing.
    call.cap?.end(estimate, charged ?? 0);
    if (charged === undefined) await guard.release(reservation);
    else {
      await guard.settle(reservation, charged);
      notify(services.observers, 'charge', { tool: call.tool, credits: charged });
      call.onCharge?.(charged);
    }
  }
}

/** The guard's reservation of the call's estimate, in a span when traces are on; or the refusal, thrown. */
async function reserve(
  services: Services,
  endpoint: Endpoint,
  params: Record<string, unknown>,
  estimate: number,
  call: UpstreamCall,
): Promise<Reservation> {
  const admission = await traced(
    services.telemetry,
    'svc.guard',
    { 'svc.credits.estimate': estimate },
    async (span) => {
      const decided = await services.guard.admit({
        account: call.account,
        person: call.person,
        personLimit: call.personLimit,
        tool: call.tool,
        estimate,
        rule: endpoint.credits,
        params,
      });
      span?.setAttribute('svc.guard.decision', decided.ok ? 'reserved' : 'refused');
      if (!decided.ok) span?.setAttribute('svc.guard.reason', decided.reason);
      return decided;
    },
  );
  if (!admission.ok) throw new RefusedCall(admission.message, admission.reason);
  return admission.reservation;
}

/** The upstream request, reported to the observers whatever its outcome, in a span when traces are on. */
function send(
  services: Services,
  source: DataSource,
  endpoint: Endpoint,
  params: Record<string, unknown>,
  call: { apiKey: string; signal: AbortSignal; retries: RequestOptions['retries'] },
): Promise<UpstreamResponse> {
  const attributes = { 'http.request.method': 'GET', 'url.path': endpoint.path };
  return traced(services.telemetry, `GET ${endpoint.path}`, attributes, async (span) => {
    const sent = performance.now();
    const report = (ok: boolean, status?: number) =>
      notify(services.observers, 'upstream', {
        tool: endpoint.name,
        path: endpoint.path,
        durationMs: performance.now() - sent,
        ok,
        status,
      });
    try {
      const traceparent = services.telemetry?.traceparent();
      const answer = await source.client.get(endpoint.path, params as QueryParams, { ...call, traceparent });
      report(true, 200);
      span?.setAttribute('http.response.status_code', 200);
      if (answer.creditCount !== undefined) span?.setAttribute('svc.credits.charged', answer.creditCount);
      return answer;
    } catch (error) {
      const status = error instanceof UpstreamError ? error.status : undefined;
      report(false, status);
      if (status !== undefined) span?.setAttribute('http.response.status_code', status);
      throw error;
    }
  });
}
