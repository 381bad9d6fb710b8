/**
 * What a tool answers through (ToolContext): the caller's fetches, figures, kept tables and scripts,
 * built per call; and how any failure on the way reads, in one line that says what to do.
 */
import {
  planTitle,
  type Tool,
  type ToolContext,
  ToolRefusal,
  toolPlans,
  UnexpectedBodyError,
} from '../kit/index.js';
import type { Services } from '../services/index.js';
import { BusyError } from '../services/limiter.js';
import { describeUpstreamError, UpstreamError } from '../upstream/errors.js';
import type { CallContext } from './context.js';
import { type Caller, pricingContext } from './estimate.js';
import { type EndpointData, type FetchContext, fetchEndpoint } from './fetch.js';
import { keptFetch } from './paging.js';
import { RefusedCall } from './refused.js';
import { runScript, scriptDeclarations } from './script-calls.js';

/**
 * The context of a call whose fetches go as `fetchContext` says, each fetch's data told to
 * `fetched` (the answer's `_meta` reads them).
 */
export function contextOf(
  services: Services,
  caller: Caller,
  context: CallContext,
  fetchContext: FetchContext,
  fetched: (data: EndpointData) => void = () => {},
): ToolContext {
  const { account, owner } = caller;
  return {
    ...pricingContext(services, caller),
    fetch: async (endpoint, query, options) => {
      const data = await fetchEndpoint(services, endpoint, query, fetchContext);
      fetched(data);
      if (!options?.keep) return data;
      const whole = { params: query, whole: data.data, fetches: [data], owner };
      return { ...data, ...(await keptFetch(services, endpoint, whole)) };
    },
    usage: () => services.guard.usage(account, context.person, context.admin, context.personLimit),
    query: (sql) => services.kept.query(owner, sql),
    script: (run) =>
      runScript(services, run, {
        account,
        owner,
        fetchContext,
        contextFor: (inner, fetched) => contextOf(services, caller, context, inner, fetched),
        describe: (error, tool) => describeFailure(error, tool, services, context),
        signal: context.signal,
      }),
    declarations: (names) => scriptDeclarations(services.config, names),
  };
}

/** A call's failure as its answer says it. */
export function describeFailure(
  error: unknown,
  tool: Tool,
  services: Services,
  context: CallContext,
): string {
  if (error instanceof RefusedCall || error instanceof BusyError || error instanceof ToolRefusal)
    return error.message;
  if (error instanceof UpstreamError) {
    return describeUpstreamError(error, {
      plans: toolPlans(tool).map(planTitle),
      ...(services.config.plan === undefined ? {} : { plan: planTitle(services.config.plan) }),
      timeoutMs: services.config.timeoutMs,
      keyFromCaller: context.apiKey !== undefined,
      takes: new Set(Object.keys(tool.toolInput.shape)),
    });
  }
  if (error instanceof UnexpectedBodyError) return `${error.message} Try again later.`;
  // A fault of ours, or a data source that could not start: still an answer the model can read.
  return `The server failed while answering (${(error as Error)?.message ?? error}).`;
}
