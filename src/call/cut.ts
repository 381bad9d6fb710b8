/**
 * No answer's data is larger than the configured bound (SVC_MAX_ANSWER_CHARS, 100,000 characters
 * by default), whatever its arguments: what hosts take as a tool's output. Past the bound, the
 * longest lists in the data are cut at their end (then, past what lists give, the longest text),
 * and the answer says what was left out and which parameters fetch it.
 */

import { formatWhole } from '../format/numbers.js';
import { jsonShown } from '../format/text.js';

/** Room left beside the records for the answer's notes (`truncated`, `next`). */
const NOTES_ROOM = 2_000;

/** The most characters of JSON the data's records may take when an answer carries `maxChars`. */
export function dataRoom(maxChars: number): number {
  return maxChars - NOTES_ROOM;
}

/** "100,000 characters (SVC_MAX_ANSWER_CHARS)": the bound as the notes name it. */
export function boundText(maxChars: number): string {
  return `${formatWhole(maxChars)} characters`;
}

export interface Cut {
  /** Where the list is, e.g. "items" or "items[0].quotes". */
  path: string;
  kept: number;
  total: number;
  /** A text value clipped to `kept` of its `total` characters, not a list. */
  text?: true;
}

type Key = string | number;

/** Lists longer than this are candidates themselves; their items are not searched for lists. */
const SEARCHED_ITEMS = 64;

/** Bytes of `value` as JSON, as an answer's text shows it (jsonShown: its escapes counted). */
export function bytesOf(value: unknown): number {
  return Buffer.byteLength(jsonShown(value));
}

/** Elements of a long list measured to estimate its size. */
const SAMPLED = 64;

/**
 * About the bytes of `value` as JSON, without serialising long lists: a list longer than SAMPLED
 * is measured on SAMPLED elements spread over it. A 10,000-point series costs a few hundred small
 * measures, not a 5 MB string.
 */
export function estimateBytes(value: unknown): number {
  if (Array.isArray(value)) {
    if (value.length <= SAMPLED) return value.reduce((sum: number, item) => sum + estimateBytes(item) + 1, 1);
    let sampled = 0;
    for (let i = 0; i < SAMPLED; i++)
      sampled += estimateBytes(value[Math.floor((i * value.length) / SAMPLED)]) + 1;
    return 1 + (sampled * value.length) / SAMPLED;
  }
  if (value !== null && typeof value === 'object') {
    let sum = 1;
    for (const [key, item] of Object.entries(value)) sum += Buffer.byteLength(key) + 4 + estimateBytes(item);
    return sum;
  }
  return bytesOf(value);
}

/**
 * The list with the most bytes (of more than one element) in `node`. Long lists are measured as a
 * whole and not searched item by item: a long series is the list to cut, not its items' own lists.
 */
function largestList(
  node: unknown,
  path: Key[] = [],
): { path: Key[]; list: unknown[]; bytes: number } | undefined {
  let best: { path: Key[]; list: unknown[]; bytes: number } | undefined;
  const consider = (found: typeof best) => {
    if (found && (!best || found.bytes > best.bytes)) best = found;
  };
  if (Array.isArray(node)) {
    if (node.length > 1) consider({ path, list: node, bytes: estimateBytes(node) });
    if (node.length <= SEARCHED_ITEMS)
      for (const [k, item] of node.entries()) consider(largestList(item, [...path, k]));
  } else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) consider(largestList(value, [...path, key]));
  }
  return best;
}

/** The longest text value in `node`, lists searched as largestList searches them. */
function longestText(node: unknown, path: Key[] = []): { path: Key[]; text: string } | undefined {
  if (typeof node === 'string') return { path, text: node };
  let best: { path: Key[]; text: string } | undefined;
  const entries = Array.isArray(node)
    ? [...node.entries()].slice(0, SEARCHED_ITEMS)
    : node !== null && typeof node === 'object'
      ? Object.entries(node)
      : [];
  for (const [key, value] of entries) {
    const found = longestText(value, [...path, key]);
    if (found && (!best || found.text.length > best.text.length)) best = found;
  }
  return best;
}

/** A copy of `node` with the value at `path` replaced; only the objects on the path are copied. */
function replaced(node: unknown, path: readonly Key[], value: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  if (Array.isArray(node)) {
    const copy = [...node];
    copy[head as number] = replaced(node[head as number], rest, value);
    return copy;
  }
  const record = node as Record<string, unknown>;
  return { ...record, [head]: replaced(record[head as string], rest, value) };
}

function pathText(path: readonly Key[]): string {
  return path.map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i > 0 ? '.' : ''}${k}`)).join('');
}

/**
 * `data` cut so that its JSON fits `room`: the largest list keeps the share of its elements that
 * fits, then the next, until the whole fits; past what lists can give (one element each), the
 * longest text is clipped (a value the service made far longer than any it sends). Sizes are
 * measured a few times, never element by element (bytes, which are never fewer than characters).
 */
function cutToFit<T>(data: T, room: number): { data: T; cuts: Cut[] } {
  let current: unknown = data;
  // Estimated while lists are long, then measured exactly once the data is small enough to be cheap.
  const measure = (value: unknown) => {
    const estimate = estimateBytes(value);
    return estimate > 4 * room ? estimate : bytesOf(value);
  };
  let size = measure(current);
  const cuts: Cut[] = [];
  for (let round = 0; round < 16 && size > room; round++) {
    const target = largestList(current);
    if (target === undefined) {
      const long = longestText(current);
      const keep = Math.max(100, (long?.text.length ?? 0) - (size - room) - 100);
      if (long === undefined || keep >= long.text.length) break;
      current = replaced(current, long.path, `${long.text.slice(0, keep)}…`);
      size = measure(current);
      cuts.push({ path: pathText(long.path), kept: keep, total: long.text.length, text: true });
      continue;
    }
    const length = target.list.length;
    // The elements a list keeps, in proportion to the bytes it may keep, with a little to spare.
    const share = Math.max(0, target.bytes - (size - room)) / target.bytes;
    const keep = Math.max(1, Math.min(length - 1, Math.floor(length * share * 0.98)));
    current = replaced(current, target.path, target.list.slice(0, keep));
    size = measure(current);
    const earlier = cuts.find((c) => c.path === pathText(target.path));
    if (earlier) earlier.kept = keep;
    else cuts.push({ path: pathText(target.path), kept: keep, total: length });
  }
  return { data: current as T, cuts };
}

/**
 * The data as an answer may carry it: whole when it fits `maxChars`, else cut, with `truncated`
 * saying what was left out and which of the tool's parameters (`takes`, its input shape) fetch the
 * rest.
 */
export function fitToAnswer(
  data: Record<string, unknown>,
  params: Record<string, unknown>,
  takes: Readonly<Record<string, unknown>>,
  maxChars: number,
): Record<string, unknown> {
  const { data: fitted, cuts } = cutToFit(data, dataRoom(maxChars));
  if (cuts.length === 0) return data;
  const advice = cuts.every((c) => c.text)
    ? 'the service sent a value longer than an answer carries'
    : restAdvice(cuts, params, takes);
  return { ...fitted, truncated: cutNote(cuts, advice, maxChars) };
}

/**
 * Which parameters fetch what a cut left out: the next page when the tool pages with start, a
 * later time_start or a smaller count for series, else a smaller limit or fewer names.
 */
function restAdvice(
  cuts: readonly Cut[],
  params: Record<string, unknown>,
  takes: Readonly<Record<string, unknown>>,
): string {
  const paged = cuts.find((c) => c.path === 'items' || c.path === 'market_pairs' || c.path === 'coins');
  if (paged && 'start' in takes) return `next: start=${Number(params.start ?? 1) + paged.kept}`;
  if ('time_start' in takes) return 'ask for the rest with a later time_start, or fewer with count';
  if ('count' in takes) return 'ask for fewer with count';
  if ('limit' in takes) return 'ask for fewer with limit';
  return 'ask for fewer items';
}

/** "Cut to stay within 100,000 characters: kept 412 of 1,000 of items[0].quotes; <advice>." */
function cutNote(cuts: readonly Cut[], advice: string, maxChars: number): string {
  const parts = cuts.map(
    (c) =>
      `kept ${formatWhole(c.kept)} of ${formatWhole(c.total)}${c.text ? ' characters' : ''} of ${c.path}`,
  );
  return `Cut to stay within ${boundText(maxChars)}: ${parts.join(', ')}; ${advice}.`;
}
