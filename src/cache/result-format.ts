/**
 * A kept result as both result stores hold it: one line of JSON about it (whose it is, its tool and
 * arguments, when it expires), then its body. The body is its data as JSON, or, for an answer past
 * the cache's bound, the service's answer as it was sent: writing that costs nothing on the
 * server's thread, where writing the normalised whole again took over 100 ms for a 14 MB history,
 * and whoever reads it normalises it again (docs/decisions/018-kept-as-sent.md). Who may read a
 * result, and whether it expired, is read from the first line alone.
 */

/** The service's answer a result's data was normalised from, kept as it was sent. */
export interface ServiceAnswer {
  /** The body as the service sent it: it holds nothing of the key (upstream/request.ts). */
  bytes: Buffer;
  /** The time the data was normalised at: what a history's last period's completeness is read against. */
  nowMs: number;
}

export interface StoredResult {
  /** The tool whose call paid for it. */
  tool: string;
  /** Whose it is (guard/accounts.ts ownerOf): the account that paid, and the person with sign-in. */
  owner: string;
  /** The call's arguments, without `format`. */
  params: Record<string, unknown>;
  /** The tool's whole data. */
  data: Record<string, unknown>;
  /** When the service answered, milliseconds since the epoch. */
  fetchedAt: number;
  /** When set, what the store keeps in place of `data` written out again. */
  answer?: ServiceAnswer;
  /**
   * Made by a call that sent nothing and used no fetched data (a query's rows): anyone can make it
   * again for nothing, so it never pushes out a result that was paid for (results.ts).
   */
  free?: boolean;
}

/** Normalises a kept service answer again, as the tool's endpoint did (kept/revive.ts). */
export type Revive = (
  tool: string,
  params: Record<string, unknown>,
  answer: unknown,
  nowMs: number,
) => Record<string, unknown>;

/** A kept result's body as the query engine reads it: its data as JSON, or the service's answer to normalise. */
export type KeptBody =
  | { json: string }
  | { answer: string; tool: string; params: Record<string, unknown>; nowMs: number };

/** The first line of a stored result. `nowMs` is set when the body is the service's answer. */
export interface ResultHeader {
  tool: string;
  owner: string;
  params: Record<string, unknown>;
  fetchedAt: number;
  expires: number;
  nowMs?: number;
  free?: boolean;
}

/** A stored result read: its first line, and its body, still bytes. */
export interface Decoded {
  header: ResultHeader;
  body: Buffer;
}

/** A result as stored: its first line and its body, written one after the other (never joined in memory). */
export function encodeResult(
  result: StoredResult,
  expires: number,
): { head: Buffer; body: Buffer; bytes: number } {
  const { tool, owner, params, fetchedAt, answer, free } = result;
  const header: ResultHeader = { tool, owner, params, fetchedAt, expires };
  if (answer) header.nowMs = answer.nowMs;
  if (free) header.free = true;
  const head = Buffer.from(`${JSON.stringify(header)}\n`);
  const body = answer ? answer.bytes : Buffer.from(JSON.stringify(result.data));
  return { head, body, bytes: head.length + body.length };
}

/** The stored result's first line and body; undefined for anything else (a miss, never a fault). */
export function decodeResult(stored: Buffer): Decoded | undefined {
  const end = stored.indexOf(10);
  if (end < 0) return undefined;
  try {
    const header = JSON.parse(stored.subarray(0, end).toString('utf8')) as ResultHeader;
    if (typeof header.owner !== 'string' || typeof header.expires !== 'number') return undefined;
    return { header, body: stored.subarray(end + 1) };
  } catch {
    return undefined;
  }
}

/**
 * The result a stored one holds, its data normalised again when it was kept as the service sent it
 * (and then with that answer, so that keeping it again stores the same bytes).
 */
export function resultOf({ header, body }: Decoded, revive: Revive): StoredResult {
  const { tool, owner, params, fetchedAt, nowMs } = header;
  const parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  if (nowMs === undefined) {
    return { tool, owner, params, fetchedAt, data: parsed, ...(header.free ? { free: true } : {}) };
  }
  const data = revive(tool, params, parsed, nowMs);
  return { tool, owner, params, fetchedAt, data, answer: { bytes: body, nowMs } };
}

/** The body of a stored result, for the query engine. */
export function keptBodyOf({ header, body }: Decoded): KeptBody {
  const text = body.toString('utf8');
  const { tool, params, nowMs } = header;
  return nowMs === undefined ? { json: text } : { answer: text, tool, params, nowMs };
}

/** The body of a result still in memory (being written, or remembered), for the query engine. */
export function keptBodyOfResult(result: StoredResult): KeptBody {
  const { tool, params, answer } = result;
  if (answer === undefined) return { json: JSON.stringify(result.data) };
  return { answer: answer.bytes.toString('utf8'), tool, params, nowMs: answer.nowMs };
}
