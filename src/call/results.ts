/** How a tool call's answers and failures look to the client: text, structured data and `_meta`. */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { counted, jsonShown, namesWithin } from '../format/text.js';
import type { KeptSummary } from '../kit/queries.js';

/** What a result's `_meta` says about the answer: its cost and how fresh it is. */
export interface ResultMeta {
  /** Credits this call was charged: 0 for a cache hit or a joined call. */
  credits: number;
  /** Whether the answer came from the cache. */
  cached: boolean;
  /** Whether it shared another identical call's request. */
  joined: boolean;
  /** Seconds since the service produced the data. */
  age_seconds: number;
  /** Whether the data comes from the sandbox, not the real service (the text says so too). */
  sandbox: boolean;
  /** Set for a page served from a kept result (a cursor's): free. */
  stored?: true;
  /** Set when the service failed and the last answer stands in (SVC_STALE_MAX_SECONDS). */
  stale?: true;
  /** How the service failed, for a stale answer. */
  stale_because?: string;
}

/**
 * A failed call: the message, and `_meta.credits`, what its requests were charged (0 unless one
 * reached the service before the call ended), which the text also says when it is not 0.
 */
export function errorResult(message: string, credits = 0): CallToolResult {
  const charged =
    credits > 0
      ? `\n${counted(credits, 'credit')} charged, for the requests the call sent before it ended: the service charges a request that reaches it, answered or not.`
      : '';
  return { content: [{ type: 'text', text: `${message}${charged}` }], isError: true, _meta: { credits } };
}

export interface Presented {
  data: Record<string, unknown>;
  /** What one row of its kept table is (ToolBase.rowName). */
  rowName?: string;
  /** The text summary of the data, for format=text. */
  summarise(data: Record<string, unknown>): string;
  format: 'text' | 'json';
  meta: ResultMeta;
}

/** "3 min", "2 h 5 min": how old a cached answer is. */
function ageText(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * The text answer's last line, the cost and the data's origin in words: "1 credit · sandbox data",
 * "from the cache, 0 credits · 4 min old", "joined an identical call, 0 credits", and for a stale
 * answer how the service failed.
 */
export function costLine(meta: ResultMeta): string {
  const credits = counted(meta.credits, 'credit');
  const age = `${ageText(meta.age_seconds)} old`;
  const head = meta.stale
    ? [`stale: the service ${meta.stale_because ?? 'failed'}, so this is the last answer, ${credits}`, age]
    : meta.stored
      ? [`from the kept result of the call that paid for it, ${credits}`, age]
      : meta.cached
        ? [`from the cache, ${credits}`, age]
        : meta.joined
          ? [`joined an identical call, ${credits}`]
          : [credits];
  return [...head, meta.sandbox && 'sandbox data'].filter(Boolean).join(' · ');
}

/**
 * The result: the text, the structured data, `_meta`. For format=text the text is the summary, a
 * note when the data is a page or was cut, the next page's arguments, and the cost line; for format=json it is the data as one JSON text,
 * valid on its own, and the notes live in the data (`truncated`) and `_meta` only.
 */
export function toolResult({ data, summarise, format, meta, rowName }: Presented): CallToolResult {
  const result = { structuredContent: data, _meta: { ...meta } };
  if (format === 'json') return { content: [{ type: 'text', text: jsonShown(data) }], ...result };
  const truncated = typeof data.truncated === 'string' ? data.truncated : undefined;
  const next = data.next === undefined ? undefined : `Next page: ${JSON.stringify(data.next)}`;
  const kept = data.kept === undefined ? undefined : keptLine(data.kept as KeptSummary, rowName);
  const text = [summarise(data), truncated, kept, next, costLine(meta)]
    .filter((line): line is string => typeof line === 'string' && line !== '')
    .join('\n');
  return { content: [{ type: 'text', text }], ...result };
}

/** A result's structured data as a person reads it: indented JSON, what a terminal would act on escaped. */
export function structuredJson(result: CallToolResult): string {
  return jsonShown(result.structuredContent, 2);
}

/** The column names a text answer lists at most, in characters; kept.columns has them all. */
const COLUMNS_SHOWN_CHARS = 600;

/** An expiry this far off or more is said with its day: a table kept for a day is not kept "until" now. */
const DAY_SHOWN_FROM_MS = 12 * 3_600_000;

/**
 * "7,440 candles kept as ohlcv_3f9k until 14:20 UTC: query them with query_data, free. Columns: …",
 * and "until 2026-11-30 12:35 UTC" for a table kept 12 hours or more.
 */
export function keptLine(kept: KeptSummary, rowName = 'row'): string {
  const shown = namesWithin(Object.keys(kept.columns), COLUMNS_SHOWN_CHARS, ' (kept.columns)');
  const time = kept.expires.slice(11, 16);
  const until =
    Date.parse(kept.expires) - Date.now() >= DAY_SHOWN_FROM_MS
      ? `${kept.expires.slice(0, 10)} ${time}`
      : time;
  const them = kept.rows === 1 ? 'it' : 'them';
  return `${counted(kept.rows, rowName)} kept as ${kept.table} until ${until} UTC: query ${them} with query_data (SQL), free. Columns: ${shown}.`;
}
