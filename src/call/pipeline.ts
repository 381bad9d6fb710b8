/**
 * The one path every tool call takes, whatever the transport:
 *
 *   arguments → input schema → cache hit, or join of an identical call in flight (both free)
 *   → credit estimate → reservation → upstream client → settle → normalise → present.
 *
 * It never throws: every failure is a result with `isError` and a message that says what to do.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Fetched } from '../cache/answers.js';
import { cacheKey } from '../cache/key.js';
import { estimateCredits } from '../catalog/credits.js';
import { type Endpoint, planTitle, UnexpectedBodyError } from '../catalog/define.js';
import { validateParams } from '../catalog/params.js';
import { accountOf } from '../guard/guard.js';
import type { QueryParams } from '../upstream/client.js';
import { describeUpstreamError, UpstreamError } from '../upstream/errors.js';
import type { LocalTool } from './local-tools.js';
import { answerResult, errorResult } from './results.js';
import type { Services } from './services.js';

export type Tool = Endpoint | LocalTool;

export interface CallContext {
  /** The caller's cancel signal: a cancelled call stops its upstream request. */
  signal?: AbortSignal;
  /** A key the caller brought (HTTP); else the data source's own. */
  apiKey?: string;
}

/** A call the guard refused before anything was sent. */
class Refused extends Error {}

function isEndpoint(tool: Tool): tool is Endpoint {
  return 'path' in tool;
}

/** Run one tool call. Never throws. */
export async function callTool(
  services: Services,
  tool: Tool,
  args: Record<string, unknown> | undefined,
  context: CallContext = {},
): Promise<CallToolResult> {
  const checked = validateParams(tool.toolInput, args ?? {});
  if (!checked.ok) return errorResult(checked.message);
  const { format, ...params } = checked.value as Record<string, unknown> & { format: 'text' | 'json' };
  try {
    if (!isEndpoint(tool)) {
      const source = await services.source();
      const account = accountOf(context.apiKey ?? source.apiKey ?? '');
      const data = await tool.answer(params, { services, account });
      const text = format === 'json' ? JSON.stringify(data) : tool.summarise(data, params);
      return answerResult({ data, text, format, sandbox: source.sandbox });
    }
    return await callEndpoint(services, tool, params, format, context);
  } catch (error) {
    if (context.signal?.aborted) return errorResult('The call was cancelled.');
    return errorResult(describeFailure(error, tool));
  }
}

async function callEndpoint(
  services: Services,
  endpoint: Endpoint,
  params: Record<string, unknown>,
  format: 'text' | 'json',
  context: CallContext,
): Promise<CallToolResult> {
  const source = await services.source();
  const apiKey = context.apiKey ?? source.apiKey;
  if (apiKey === undefined) {
    throw new Refused('No API key: send your key for the service in the key header with each request.');
  }
  const account = accountOf(apiKey);
  const { guard } = services;
  const fetched: Fetched = await services.answers.fetch(
    cacheKey(endpoint.name, account, params),
    endpoint.refreshSeconds * 1000,
    context.signal,
    async (signal) => {
      const estimate = estimateCredits(endpoint.credits, params, Math.floor(services.now() / 1000));
      const admission = await guard.admit({
        account,
        tool: endpoint.name,
        estimate,
        rule: endpoint.credits,
        params,
      });
      if (!admission.ok) throw new Refused(admission.message);
      let answer: Awaited<ReturnType<typeof source.client.get>>;
      try {
        answer = await source.client.get(endpoint.path, params as QueryParams, { apiKey, signal });
      } catch (error) {
        await guard.release(admission.reservation);
        throw error;
      }
      // Settled before normalising: an answer of an unexpected shape was still charged.
      const charged = answer.creditCount ?? estimate;
      await guard.settle(admission.reservation, charged);
      return { data: endpoint.normalise(answer.body, params), fetchedAt: Date.now(), credits: charged };
    },
  );
  if (fetched.via !== 'upstream') guard.recordHit(account, endpoint.name, fetched.credits);
  let data = fetched.data as Record<string, unknown>;
  if (endpoint.withGuardFigures) {
    const { window, budget, spent, left, resets_at } = await guard.usage(account);
    data = { ...data, guard: { window, budget, spent, left, resets_at } };
  }
  const text = format === 'json' ? JSON.stringify(data) : endpoint.summarise(data, params);
  return answerResult({
    data,
    text,
    format,
    sandbox: source.sandbox,
    meta: {
      credits: fetched.via === 'upstream' ? fetched.credits : 0,
      cached: fetched.via === 'cache',
      joined: fetched.via === 'joined',
      age_seconds: Math.max(0, Math.round((Date.now() - fetched.fetchedAt) / 1000)),
    },
  });
}

function describeFailure(error: unknown, tool: Tool): string {
  if (error instanceof Refused) return error.message;
  if (error instanceof UpstreamError) {
    return describeUpstreamError(error, { plans: isEndpoint(tool) ? tool.plans.map(planTitle) : [] });
  }
  if (error instanceof UnexpectedBodyError) return `${error.message} Try again later.`;
  // A fault of ours, or a data source that could not start: still an answer the model can read.
  return `The server failed while answering (${(error as Error)?.message ?? error}).`;
}
