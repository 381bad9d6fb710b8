/**
 * No answer is larger than 1 MiB on the wire, whatever its arguments (a larger line is one the
 * SDK's own stdio client refuses, closing the session). Past the bound, the longest lists in the
 * data are cut at their end, and the answer says what was left out and which parameters fetch it.
 */

/** The most a tool result may take on the wire, JSON-RPC envelope included. */
export const WIRE_LIMIT = 1024 * 1024;
/** Room for the envelope, `_meta`, notes and the text summary beside the data. */
const HEADROOM = 16 * 1024;

export interface Cut {
  /** Where the list is, e.g. "items" or "items[0].quotes". */
  path: string;
  kept: number;
  total: number;
}

type Key = string | number;

/** Bytes `value` takes on the wire: once as structured data, and again as JSON text for format=json. */
function weight(value: unknown, asText: boolean): number {
  const json = JSON.stringify(value) ?? '';
  const bytes = Buffer.byteLength(json);
  return asText ? bytes + Buffer.byteLength(JSON.stringify(json)) - 2 : bytes;
}

/** The list with the most bytes (of more than one element) anywhere in `node`. */
function largestList(
  node: unknown,
  path: Key[] = [],
): { path: Key[]; list: unknown[]; bytes: number } | undefined {
  let best: { path: Key[]; list: unknown[]; bytes: number } | undefined;
  const consider = (found: typeof best) => {
    if (found && (!best || found.bytes > best.bytes)) best = found;
  };
  if (Array.isArray(node)) {
    if (node.length > 1) consider({ path, list: node, bytes: Buffer.byteLength(JSON.stringify(node)) });
    for (const [k, item] of node.entries()) consider(largestList(item, [...path, k]));
  } else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) consider(largestList(value, [...path, key]));
  }
  return best;
}

/** A copy of `node` with the value at `path` replaced; only the objects on the path are copied. */
function replaced(node: unknown, path: readonly Key[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
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
 * `data` cut so that it (twice over for format=json, where the text carries it too) fits the wire
 * limit: the largest list loses elements at its end, then the next, until it fits.
 */
export function cutToFit<T>(data: T, asText: boolean): { data: T; cuts: Cut[] } {
  const room = WIRE_LIMIT - HEADROOM;
  let current: unknown = data;
  const cuts: Cut[] = [];
  for (let round = 0; round < 16; round++) {
    let excess = weight(current, asText) - room;
    if (excess <= 0) break;
    const target = largestList(current);
    if (target === undefined) break;
    let keep = target.list.length;
    while (keep > 1 && excess > 0) {
      keep--;
      excess -= weight(target.list[keep], asText) + 1;
    }
    current = replaced(current, target.path, target.list.slice(0, keep));
    cuts.push({ path: pathText(target.path), kept: keep, total: target.list.length });
  }
  return { data: current as T, cuts };
}

/**
 * Which parameters fetch what a cut left out: the next page when the tool pages with start, a
 * later time_start or a smaller count for series, else a smaller limit or fewer names.
 */
export function restAdvice(
  cuts: readonly Cut[],
  params: Record<string, unknown>,
  takes: readonly string[],
): string {
  const paged = cuts.find((c) => c.path === 'items' || c.path === 'market_pairs' || c.path === 'coins');
  if (paged && takes.includes('start')) return `next: start=${Number(params.start ?? 1) + paged.kept}`;
  if (takes.includes('time_start')) return 'ask for the rest with a later time_start, or fewer with count';
  if (takes.includes('count')) return 'ask for fewer with count';
  if (takes.includes('limit')) return 'ask for fewer with limit';
  return 'ask for fewer items';
}

/** "Cut to stay under 1 MiB: kept 4,012 of 10,000 of items[0].quotes; <advice>." */
export function cutNote(cuts: readonly Cut[], advice: string): string {
  const parts = cuts.map(
    (c) => `kept ${c.kept.toLocaleString('en-US')} of ${c.total.toLocaleString('en-US')} of ${c.path}`,
  );
  return `Cut to stay under 1 MiB: ${parts.join(', ')}; ${advice}.`;
}
