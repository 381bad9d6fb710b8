/**
 * A list or history answered a page at a time, paid once. The call's whole data (one request for
 * all its arguments ask) is cut into pages: a JSON page holds as many rows as fit the answer's
 * bound (SVC_MAX_ANSWER_CHARS), a text page as many as its text shows within SVC_TEXT_PAGE_CHARS
 * (every row it covers: no text samples its rows). When rows are left, the
 * whole is kept in the result store and `next` carries the arguments of the rows after the page's
 * last with a `cursor`, which serves that page from the store, free; the arguments alone would ask
 * the service again. A cursor that cannot be served is refused, free, saying what would ask again.
 * So a reader who follows `next` sees every row exactly once, in text or JSON, and pays for the
 * data once.
 */

import type { ServiceAnswer } from '../cache/result-format.js';
import type { Kept } from '../kept/kept.js';
import { checkedData, type Endpoint, type Tool, tableRows } from '../kit/define.js';
import type { Pages } from '../kit/pages.js';
import type { KeptSummary } from '../kit/queries.js';
import type { Services } from '../services/index.js';
import { answerAsSent, type EndpointData } from './fetch.js';
import { keptSummary, type PageOfWhole, pagedAnswer } from './page-answer.js';

/** Where an answer's whole comes from and whose it is, for its page and for keeping it. */
export interface PageView extends PageOfWhole {
  owner: string;
  fetchedAt: number;
  /** How long the whole is kept: the endpoint's refresh (the store keeps at least 10 minutes). */
  keepMs: number;
  /** The kept result the page is read from, when a cursor named it. */
  resultId?: string;
  /** The service's answer the whole was normalised from, when it is kept as sent. */
  answer?: ServiceAnswer;
  /** The fetch it came from, when it is kept as sent: its cache key and what it cost. */
  source?: Pick<EndpointData, 'key' | 'credits'>;
  /** Made with nothing sent or charged (StoredResult.free). */
  free?: boolean;
}

/**
 * The page of `whole` from row `from` that this answer carries (page-answer.ts), the whole kept as
 * keepWhole says: an endpoint's always, as a table; a local tool's (a query's rows) only when rows
 * are left after the page.
 */
export function answerPage(
  services: Services,
  tool: Tool & { pages: Pages },
  view: PageView,
): Promise<Record<string, unknown>> {
  const { maxAnswerChars, textPageChars } = services.config;
  const settings = { maxAnswerChars, textPageChars, now: Math.floor(services.now() / 1000) };
  return pagedAnswer(tool, view, settings, (rowsLeft) => keepWhole(services, tool, view, rowsLeft));
}

/** The whole kept as the page view says (see answerPage); undefined when it is not, or cannot be. */
async function keepWhole(
  services: Services,
  tool: Tool,
  view: Omit<PageView, 'from' | 'format'>,
  rowsLeft: boolean,
): Promise<Kept | undefined> {
  if (view.resultId !== undefined) return { id: view.resultId, table: services.kept.tableOf(view.resultId) };
  const shape = tableRows(tool);
  if (shape === undefined && !rowsLeft) return undefined;
  const kept = await services.kept
    .keep({
      whole: !rowsLeft,
      owner: view.owner,
      tool: tool.name,
      params: view.params,
      data: view.whole,
      fetchedAt: view.fetchedAt,
      answer: view.answer,
      shape,
      keepMs: view.keepMs,
      free: view.free,
    })
    .catch((error: unknown) => {
      services.log.warn({ tool: tool.name, err: error }, 'an answer could not be kept');
      return undefined;
    });
  // Too large for the cache: the same call, until the endpoint's refresh, reads it where it is kept.
  const { source } = view;
  if (kept !== undefined && view.answer !== undefined && source !== undefined) {
    const storedAs = { id: kept.id, owner: view.owner };
    await services.cache.refer(
      source.key,
      { fetchedAt: view.fetchedAt, credits: source.credits, storedAs },
      view.keepMs,
    );
  }
  return kept;
}

/** The table an answer that is a list but not paged (posts, trending tokens) is kept as: its summary. */
export async function keptTableOf(
  services: Services,
  tool: Tool,
  view: Omit<PageView, 'from' | 'format' | 'resultId'>,
): Promise<{ kept?: KeptSummary }> {
  const kept = await keepWhole(services, tool, view, false);
  return kept?.table === undefined ? {} : { kept: keptSummary(kept.table) };
}

/**
 * An endpoint's whole data as a call fetched it, checked, with the table its rows are kept as
 * (`kept`), as the endpoint's own first answer keeps them: what a script's call answers, and what
 * a tool that fetches rows for figures of its own keeps of them.
 */
export async function keptFetch(
  services: Services,
  endpoint: Endpoint,
  call: { params: Record<string, unknown>; whole: unknown; fetches: readonly EndpointData[]; owner: string },
): Promise<{ data: Record<string, unknown>; kept?: KeptSummary }> {
  const data = checkedData(endpoint, call.whole);
  const view = {
    whole: data,
    params: call.params,
    owner: call.owner,
    fetchedAt: call.fetches[0]?.fetchedAt ?? Date.now(),
    keepMs: endpoint.refreshSeconds * 1000,
    answer: answerAsSent(call.fetches, call.whole),
    source: call.fetches[0],
  };
  return { data, ...(await keptTableOf(services, endpoint, view)) };
}
