/**
 * A list or history's page as one answer carries it, made from the whole it is of: the rows that fit
 * the answer's bounds, where they are among the rows, `next`, and the table the whole is kept as.
 * Nothing here reads or writes anything: the caller keeps the whole (paging.ts), through the
 * function it gives.
 */

import { formatWhole } from '../format/numbers.js';
import { jsonShown, oneLine } from '../format/text.js';
import type { KeptTable } from '../kept/catalog.js';
import type { Kept } from '../kept/kept.js';
import { rowCount } from '../kept/rows.js';
import { checkedData, type Tool, ToolRefusal } from '../kit/define.js';
import type { Pages } from '../kit/pages.js';
import type { KeptSummary } from '../kit/queries.js';
import { boundText, bytesOf, dataRoom, estimateBytes, fitToAnswer } from './cut.js';

/**
 * A tool's text of its data (of a page, by the whole it is of), what a third party wrote in it on
 * one line each (format/text.ts oneLine).
 */
export function summaryOf(
  tool: Tool,
  data: Record<string, unknown>,
  params: Record<string, unknown>,
  whole?: Record<string, unknown>,
): string {
  return tool.summarise(oneLine(data), params, oneLine(whole));
}

export interface Page {
  data: Record<string, unknown>;
  /** The row after the page's last. */
  end: number;
  total: number;
}

/** What bounds a page: its JSON, and for a text answer its rows' text too. */
export interface PageBounds {
  /** Characters of JSON a page's data takes at most (SVC_MAX_ANSWER_CHARS). */
  maxChars: number;
  /** A text answer's: the most characters its rows' text takes, and that text of a page's data. */
  text?: { chars: number; of(data: Record<string, unknown>): string };
}

/** The rows of `whole` from `from` on that one answer carries: at least one. */
export function pageOf(pages: Pages, whole: Record<string, unknown>, from: number, bounds: PageBounds): Page {
  const total = pages.count(whole);
  const fits = rowsFitting(pages, whole, from, total, dataRoom(bounds.maxChars));
  const size = bounds.text ? textRowsFitting(pages, whole, from, fits, bounds.text) : fits;
  const end = Math.min(total, from + Math.max(1, size));
  return { data: pages.slice(whole, from, end), end, total };
}

/**
 * The most rows from `from`, `most` at most, whose text takes at most `text.chars`: at least one.
 * A text page shows every row it covers, so its size is found by writing it (a few times over: a
 * halving search between one row and `most`).
 */
function textRowsFitting(
  pages: Pages,
  whole: Record<string, unknown>,
  from: number,
  most: number,
  text: NonNullable<PageBounds['text']>,
): number {
  const fits = (rows: number) => text.of(pages.slice(whole, from, from + rows)).length <= text.chars;
  if (most <= 1 || fits(most)) return most;
  let shown = 1;
  let over = most;
  while (over - shown > 1) {
    const middle = Math.floor((shown + over) / 2);
    if (fits(middle)) shown = middle;
    else over = middle;
  }
  return shown;
}

/**
 * How many rows from `from` fit `room` bytes of JSON: all when the rest does, else as many as its
 * measured share, measured again until it fits. A long list is measured on a sample first, never
 * serialised whole.
 */
function rowsFitting(
  pages: Pages,
  whole: Record<string, unknown>,
  from: number,
  total: number,
  room: number,
): number {
  const rest = total - from;
  const estimated = estimateBytes(pages.slice(whole, from, total));
  if (estimated <= room * 0.9 && bytesOf(pages.slice(whole, from, total)) <= room) return rest;
  let rows = Math.max(1, Math.min(rest, Math.floor(((rest * room) / estimated) * 0.95)));
  for (let round = 0; round < 8; round++) {
    const bytes = bytesOf(pages.slice(whole, from, from + rows));
    if (bytes <= room || rows === 1) break;
    rows = Math.max(1, Math.floor(((rows * room) / bytes) * 0.95));
  }
  return rows;
}

/**
 * Where the page is among the rows, and what `next` asks for: the rows after it from the stored
 * result (`cursor`), or, after the last row kept, what the service may still have (a new request).
 */
export function pageNote(
  page: Page,
  from: number,
  next: Record<string, unknown> | undefined,
  options: { base?: number; counts?: 'rows' | 'periods' } = {},
): string {
  const n = (row: number) => formatWhole((options.base ?? 0) + row);
  const rows = `${options.counts === 'periods' ? 'Periods' : 'Rows'} ${n(from + 1)}–${n(page.end)}`;
  if (page.end < page.total) {
    const of = `${rows} of ${n(page.total)}`;
    if (next === undefined)
      return `${of}; the rest could not be kept: ask for fewer rows (LIMIT and OFFSET) to see them`;
    return next.cursor === undefined
      ? `${of}; the rest was not kept: next asks the service for it again`
      : `${of}; next is the following page, free (kept with this call's result)`;
  }
  if (next !== undefined) return `${rows}; the service may have more: next asks it for them, a new request`;
  return `${rows} of ${n(page.total)}, the last`;
}

/** What an answer says of the table its rows are kept as. */
export function keptSummary(table: KeptTable): KeptSummary {
  return {
    table: table.name,
    columns: Object.fromEntries(table.columns),
    rows: table.rows,
    expires: new Date(table.expires).toISOString(),
  };
}

/** The whole a page is of, and which page. */
export interface PageOfWhole {
  whole: Record<string, unknown>;
  params: Record<string, unknown>;
  from: number;
  format: 'text' | 'json';
}

/** What bounds an answer (SVC_MAX_ANSWER_CHARS, SVC_TEXT_PAGE_CHARS), and the time in Unix seconds. */
export interface PageSettings {
  maxAnswerChars: number;
  textPageChars: number;
  now: number;
}

/** Keeps the whole, told whether rows are left after the page: what the answer names, or undefined. */
export type KeepWhole = (rowsLeft: boolean) => Promise<Kept | undefined>;

/**
 * The page of `whole` from row `from` that this answer carries, with where it is among the rows
 * (`truncated`), `next`, and, for an endpoint's rows, the table they are kept as (`kept`). The whole
 * is kept once (a page of a kept result is not kept again): an endpoint's always, as a table; a
 * local tool's (a query's rows) only when rows are left after the page. When it cannot be kept,
 * `next` asks the service for the rest.
 */
export async function pagedAnswer(
  tool: Tool & { pages: Pages },
  view: PageOfWhole,
  settings: PageSettings,
  keep: KeepWhole,
): Promise<Record<string, unknown>> {
  const { pages } = tool;
  const { maxAnswerChars, textPageChars } = settings;
  const text =
    view.format === 'text'
      ? {
          chars: Math.min(textPageChars, maxAnswerChars),
          of: (data: Record<string, unknown>) => summaryOf(tool, data, view.params, view.whole),
        }
      : undefined;
  let bound = maxAnswerChars;
  let page = pageOf(pages, view.whole, view.from, { maxChars: bound, text });
  let answer = await answerWith(tool, view, settings, page, keep);
  // The kept table's summary goes beside the page: hundreds of columns take their room from it.
  for (let round = 0; round < SMALLER_ROUNDS; round++) {
    const over = jsonShown(answer).length - maxAnswerChars;
    if (over <= 0 || page.end - view.from === 1) break;
    bound -= over + OVER_SPARE;
    page = pageOf(pages, view.whole, view.from, { maxChars: bound, text });
    answer = await answerWith(tool, view, settings, page, keep);
  }
  return answer;
}

/** Times a page is made smaller for what goes beside it, each by what the answer was over. */
const SMALLER_ROUNDS = 4;
/** Room to spare each time: the notes' figures may grow. */
const OVER_SPARE = 200;

/** The answer that carries `page` (see answerPage), the whole kept as it says. */
async function answerWith(
  tool: Tool & { pages: Pages },
  view: PageOfWhole,
  settings: PageSettings,
  page: Page,
  keep: KeepWhole,
): Promise<Record<string, unknown>> {
  const { pages } = tool;
  // What is shown is checked: a figure the model would misread makes the answer an unexpected shape.
  const data = tool.kind === 'endpoint' ? checkedData(tool, page.data) : page.data;
  const shown = { ...page, data };
  const cut = fitOneRow(tool, shown, view, settings.maxAnswerChars);
  const kept = await keep(page.end < page.total);
  let next: Record<string, unknown> | undefined;
  if (page.end < page.total) {
    const rest = pages.restFrom(view.params, view.whole, page.end);
    // A local tool's rows (a query's) are not asked for again from a row on: without a cursor, no next.
    if (kept !== undefined) next = { ...rest, cursor: `${kept.id}.${page.end}` };
    else if (tool.kind === 'endpoint') next = rest;
  } else {
    next = pages.beyond?.(view.params, view.whole, settings.now);
  }
  const table = kept?.table === undefined ? {} : { kept: keptSummary(kept.table) };
  if (view.from === 0 && page.end === page.total && next === undefined) return { ...shown.data, ...table };
  // Offset lists number their rows from their start, as the service does.
  const base = typeof view.whole.start === 'number' ? view.whole.start - 1 : 0;
  // A series of several assets is paged by its periods, each as many rows of its table as assets.
  const periods = rowCount(view.whole, pages.rows) !== page.total;
  const note = pageNote(page, view.from, next, { base, counts: periods ? 'periods' : 'rows' });
  const truncated = cut === undefined ? note : `${cut} ${note}`;
  return { ...shown.data, truncated, ...(next ? { next } : {}), ...table };
}

/**
 * A page is at least one row, and one row may be longer than an answer carries. A local tool's (a
 * query's value built in SQL) is refused. An endpoint's, paid for and kept whole (rows the service
 * made far wider than asked), has its longest lists cut, saying so: the note, when it was cut.
 */
function fitOneRow(tool: Tool, page: Page, view: PageOfWhole, maxChars: number): string | undefined {
  if (page.end - view.from !== 1) return undefined;
  const chars = jsonShown(page.data).length;
  if (chars <= dataRoom(maxChars)) return undefined;
  if (tool.kind === 'local') {
    throw new ToolRefusal(
      `Row ${formatWhole(view.from + 1)} of this answer is ${formatWhole(chars)} characters of JSON, more than one answer carries (${boundText(maxChars)}, SVC_MAX_ANSWER_CHARS): ask for less of each row (fewer columns, or substr() of a long value).`,
    );
  }
  const { truncated, ...fitted } = fitToAnswer(page.data, view.params, tool.toolInput.shape, maxChars);
  page.data = fitted;
  return typeof truncated === 'string' ? truncated : undefined;
}
