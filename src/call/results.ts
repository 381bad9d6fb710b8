/** How a tool call's answers and failures look to the client: text, structured data and `_meta`. */
import type { CallToolResult } from '@modelcontextprotocol/server';

const SANDBOX_NOTE = '[sandbox data]';

/** What a result's `_meta` says about the answer: its cost and how fresh it is. */
export interface AnswerMeta {
  /** Credits this call was charged: 0 for a cache hit or a joined call. */
  credits: number;
  /** Whether the answer came from the cache. */
  cached: boolean;
  /** Whether it shared another identical call's request. */
  joined: boolean;
  /** Seconds since the service produced the data. */
  age_seconds: number;
}

export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

export interface Presented {
  data: Record<string, unknown>;
  /** The text summary of the data, for format=text. */
  summarise(data: Record<string, unknown>): string;
  format: 'text' | 'json';
  meta?: AnswerMeta;
  sandbox: boolean;
}

/** "3 min", "2 h 5 min": how old a cached answer is. */
function ageText(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * The result: the text (the summary, or the data as JSON for format=json), the structured data,
 * `_meta`. Data cut to fit the wire (cut.ts) says so in `truncated`, which the text repeats.
 */
export function answerResult({ data, summarise, format, meta, sandbox }: Presented): CallToolResult {
  const truncated = typeof data.truncated === 'string' ? data.truncated : undefined;
  const text =
    format === 'json' ? JSON.stringify(data) : [summarise(data), truncated].filter(Boolean).join('\n');
  const notes = [
    meta?.cached && `(cached answer: the data is ${ageText(meta.age_seconds)} old)`,
    sandbox && SANDBOX_NOTE,
  ].filter((n): n is string => typeof n === 'string');
  const content: CallToolResult['content'] =
    format === 'json'
      ? [{ type: 'text', text }, ...notes.map((n) => ({ type: 'text' as const, text: n }))]
      : [{ type: 'text', text: [text, ...notes].join('\n') }];
  return { content, structuredContent: data, ...(meta ? { _meta: { ...meta } } : {}) };
}
