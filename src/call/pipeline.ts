/**
 * The one path every tool call takes, whatever the transport and the tool's kind:
 *
 *   arguments → input schema → the tool's answer → present.
 *
 * A tool's answer reads endpoints' data through `fetchEndpoint`: a cache hit, or a join of an
 * identical call in flight (both free); else the credits estimated and reserved, and in the
 * limiter's turn the request marked sent, sent and normalised; the reservation then settles by how
 * the call ended. A list or history is answered a page at a time (paging.ts): its following pages
 * come from the result store, free.
 *
 * It never throws: every failure is a result with `isError` and a message that says what to do.
 */

import type { CallToolResult } from '@modelcontextprotocol/server';
import type { StoredResult } from '../cache/result-format.js';
import type { Fetched } from '../cache/shared.js';
import { accountOf, ownerOf } from '../guard/accounts.js';
import { validateParams } from '../kit/arguments.js';
import { checkedData, type Tool, type ToolContext, ToolRefusal } from '../kit/index.js';
import { CALL_CANCELLED } from '../messages.js';
import { type CallEvent, notify } from '../ops/events.js';
import type { Services } from '../services/index.js';
import { BusyError } from '../services/limiter.js';
import { confirmCall } from './confirmation.js';
import { type CallContext, Question } from './context.js';
import { cursorArguments, firstCheck, isCursorAlone, type StoredPage, storedPage } from './cursors.js';
import { fitToAnswer } from './cut.js';
import { cursorRefusal } from './estimate.js';
import { answerAsSent, type EndpointData, type FetchContext } from './fetch.js';
import { summaryOf } from './page-answer.js';
import { answerPage, keptTableOf } from './paging.js';
import { RefusedCall } from './refused.js';
import { errorResult, type ResultMeta, toolResult } from './results.js';
import { contextOf, describeFailure } from './tool-context.js';

/** What a call's end reports besides its result. */
interface Outcome {
  result: CallToolResult | Question;
  event: Omit<CallEvent, 'tool' | 'durationMs'>;
}

/** A call refused for its arguments: free, nothing sent. */
function invalid(message: string): Outcome {
  return { result: errorResult(message), event: { outcome: 'invalid', credits: 0 } };
}

/** Run one tool call. Never throws. A caller that cannot be asked is always answered. */
export async function callTool(
  services: Services,
  tool: Tool,
  args: Record<string, unknown> | undefined,
  context?: CallContext & { confirm?: undefined },
): Promise<CallToolResult>;
export async function callTool(
  services: Services,
  tool: Tool,
  args: Record<string, unknown> | undefined,
  context: CallContext,
): Promise<CallToolResult | Question>;
export async function callTool(
  services: Services,
  tool: Tool,
  args: Record<string, unknown> | undefined,
  context: CallContext = {},
): Promise<CallToolResult | Question> {
  const started = performance.now();
  notify(services.observers, 'start', { tool: tool.name });
  const { result, event } = await runCall(services, tool, args, context);
  notify(services.observers, 'call', {
    tool: tool.name,
    durationMs: performance.now() - started,
    person: context.person,
    ...event,
  });
  return result;
}

async function runCall(
  services: Services,
  tool: Tool,
  args: Record<string, unknown> | undefined,
  context: CallContext,
): Promise<Outcome> {
  const sent = args ?? {};
  // What the call's requests were charged: an answer's `_meta` and every end's event say so.
  let charged = 0;
  const { confirm, ...caller } = context;
  const fetchContext: FetchContext = {
    ...caller,
    tool: tool.name,
    onCharge: (credits) => {
      charged += credits;
    },
  };
  try {
    const first = firstCheck(tool, sent);
    if (!first.ok) return invalid(first.message);
    const source = await services.source();
    const account = accountOf(context.apiKey ?? source.apiKey ?? '');
    const owner = ownerOf(account, context.person);
    const asked = await cursorArguments(services, tool, sent, owner);
    if ('unservable' in asked)
      throw new ToolRefusal(await cursorRefusal(services, account, tool, {}, true, asked));
    const checked = asked.found ? validateParams(tool.toolInput, asked.args) : first;
    if (!checked.ok) return invalid(checked.message);
    const { format, cursor, ...params } = checked.value as Record<string, unknown> & {
      format: 'text' | 'json';
      cursor?: string;
    };
    const fetches: EndpointData[] = [];
    const toolContext = contextOf(services, { account, owner }, context, fetchContext, (fetched) => {
      fetches.push(fetched);
    });
    // Asked before anything is reserved or sent: the question goes back as the call's answer.
    const confirmation = await confirmCall(services, tool, params, { account, confirm, cursor }, toolContext);
    if (confirmation instanceof Question)
      return { result: confirmation, event: { outcome: 'asked', credits: 0 } };
    fetchContext.unaskedFrom = confirmation.unaskedFrom;
    const answer = await answerData(services, tool, params, toolContext, {
      cursor,
      found: asked.found,
      onlyCursor: isCursorAlone(sent),
      format,
      account,
      owner,
      fetches,
      free: () => tool.kind === 'local' && fetches.length === 0 && charged === 0,
    });
    const data = nextInFormat(answer.data, format);
    const meta = answerMeta(fetches, source.sandbox, charged, answer.stored);
    // Answered here with nothing sent (a query over kept tables, the guard's own figures): a free call.
    if (tool.kind === 'local' && fetches.length === 0) services.guard.recordFree(account, tool.name);
    return {
      result: toolResult({ ...presentation(tool, answer.of ?? { params }, format), data, meta }),
      event: {
        outcome: 'ok',
        credits: charged,
        via: answer.stored ? 'stored' : tool.kind === 'endpoint' ? (fetches[0]?.via ?? 'local') : 'local',
        account,
      },
    };
  } catch (error) {
    if (context.signal?.aborted) {
      return {
        result: errorResult(CALL_CANCELLED, charged),
        event: { outcome: 'cancelled', credits: charged },
      };
    }
    return {
      result: errorResult(describeFailure(error, tool, services, context), charged),
      event: { ...outcomeOf(error), credits: charged },
    };
  }
}

/** How a call that failed ended: refused (and why), refused for its input, or an error. */
function outcomeOf(error: unknown): Pick<CallEvent, 'outcome' | 'reason'> {
  const reason =
    error instanceof RefusedCall || error instanceof ToolRefusal
      ? error.reason
      : error instanceof BusyError
        ? 'busy'
        : undefined;
  if (reason !== undefined) return { outcome: 'refused', reason };
  return { outcome: error instanceof ToolRefusal ? 'invalid' : 'error' };
}

/**
 * A tool's data as this answer carries it. A list or history: the page a cursor names from a kept
 * result (free), else the first page of the whole the tool answered, kept; an endpoint's other data
 * cut to the answer's bound when it is larger (call/cut.ts).
 */
async function answerData(
  services: Services,
  tool: Tool,
  params: Record<string, unknown>,
  toolContext: ToolContext,
  call: {
    cursor?: string;
    /** The page a cursor sent alone names, found already (cursorArguments). */
    found?: StoredPage;
    onlyCursor: boolean;
    format: 'text' | 'json';
    account: string;
    owner: string;
    fetches: EndpointData[];
    /** Whether the answer was made with nothing sent or charged, and no fetched data (StoredResult.free). */
    free: () => boolean;
  },
): Promise<{ data: Record<string, unknown>; stored?: StoredResult; of?: Whole }> {
  const { pages } = tool;
  if (pages === undefined) {
    const answered = await tool.data(params, toolContext);
    if (tool.kind === 'local') return { data: answered };
    const data = checkedData(tool, answered);
    const fitted = fitToAnswer(data, params, tool.toolInput.shape, services.config.maxAnswerChars);
    if (tool.rows === undefined) return { data: fitted };
    const keepMs = tool.refreshSeconds * 1000;
    const fetchedAt = call.fetches[0]?.fetchedAt ?? Date.now();
    const table = await keptTableOf(services, tool, {
      whole: data,
      params,
      owner: call.owner,
      fetchedAt,
      keepMs,
    });
    return { data: { ...fitted, ...table } };
  }
  const { cursor, onlyCursor, owner } = call;
  const found =
    cursor === undefined
      ? undefined
      : (call.found ?? (await storedPage(services, tool, { params, cursor, owner, onlyCursor })));
  // Nothing is fetched that was not asked for: a cursor is a page of a kept result, or refused.
  if (found !== undefined && 'unservable' in found) {
    throw new ToolRefusal(await cursorRefusal(services, call.account, tool, params, onlyCursor, found));
  }
  const whole = found?.result.data ?? (await tool.data(params, toolContext));
  const answer = found ? undefined : answerAsSent(call.fetches, whole);
  const of = { whole, params: found?.result.params ?? params };
  const data = await answerPage(
    services,
    { ...tool, pages },
    {
      ...of,
      from: found?.from ?? 0,
      format: call.format,
      owner,
      fetchedAt: found?.result.fetchedAt ?? call.fetches[0]?.fetchedAt ?? Date.now(),
      keepMs: tool.kind === 'endpoint' ? tool.refreshSeconds * 1000 : 0,
      resultId: found?.id,
      answer,
      source: answer === undefined ? undefined : call.fetches[0],
      free: call.free(),
    },
  );
  return { data, stored: found?.result, of };
}

/**
 * What `_meta` says of an answer built from these fetches: what the call was charged (a stale answer
 * standing in for a request cut after it was sent too), whether every fetch came from the cache (or
 * another call's request), and the age of the oldest. A page of a kept result is free and as old as
 * the result; a local answer that fetched nothing is free and fresh.
 */
function answerMeta(
  fetches: readonly EndpointData[],
  sandbox: boolean,
  credits: number,
  stored?: StoredResult,
): ResultMeta {
  const now = Date.now();
  if (stored !== undefined) {
    const age = Math.max(0, Math.round((now - stored.fetchedAt) / 1000));
    return { credits, cached: false, joined: false, stored: true, age_seconds: age, sandbox };
  }
  const all = (via: Fetched['via']) => fetches.length > 0 && fetches.every((f) => f.via === via);
  const staleBecause = fetches.find((f) => f.via === 'stale')?.staleBecause;
  return {
    credits,
    cached: all('cache'),
    joined: all('joined'),
    age_seconds: Math.max(0, ...fetches.map((f) => Math.round((now - f.fetchedAt) / 1000))),
    sandbox,
    ...(staleBecause === undefined ? {} : { stale: true, stale_because: staleBecause }),
  };
}

/** The next page's arguments keep the format asked for (text is the default, so it goes unsaid). */
function nextInFormat(data: Record<string, unknown>, format: 'text' | 'json'): Record<string, unknown> {
  const next = data.next as Record<string, unknown> | undefined;
  return next === undefined || format === 'text' ? data : { ...data, next: { ...next, format } };
}

/** The whole a page is of, and the arguments it was fetched with: what the page's text describes. */
interface Whole {
  whole?: Record<string, unknown>;
  params: Record<string, unknown>;
}

/** How a tool's data becomes its answer: its summary (of a page, by the whole it is of) and the format. */
function presentation(tool: Tool, { whole, params }: Whole, format: 'text' | 'json') {
  return {
    summarise: (data: Record<string, unknown>) => summaryOf(tool, data, params, whole),
    format,
    rowName: tool.rowName,
  };
}
