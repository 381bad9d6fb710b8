/**
 * An MCP request's body over HTTP, read here (within its bounds) rather than by the SDK: so that a
 * tools/call whose arguments hold `__proto__` can be seen before the SDK's parsing drops that key,
 * and so that what the SDK would choke on or multiply (deep nesting, batches) is refused first
 * with a 400 that says why.
 */
import type { IncomingMessage } from 'node:http';
import {
  PROTOCOL_VERSION_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
  UnsupportedProtocolVersionError,
} from '@modelcontextprotocol/server';
import { readBytes } from '../../http/read-body.js';
import type { HttpRefusal } from '../../http/refusal.js';
import { clip } from '../../messages.js';
import { MAX_REVISION_CHARS, nestingProblem, notAMessage } from '../jsonrpc-message.js';

/** Largest request body: a tool call's arguments are a few hundred bytes. */
export const MAX_REQUEST_BYTES = 256 * 1024;
/** Most messages in one JSON-RPC batch (2025-03-26 and earlier: later revisions have none). */
const MAX_BATCH_MESSAGES = 16;
/** The first revision without JSON-RPC batches (dates compare as text). */
const FIRST_WITHOUT_BATCHES = '2025-06-18';
/** The stateless revision the SDK's v2 packages speak beside the 2025 ones. */
const MODERN_REVISION = '2026-07-28';

const INVALID_REQUEST = -32600;

export type Body = { parsed: unknown } | { refusal: HttpRefusal } | { invalid: true };

export async function readBody(req: IncomingMessage): Promise<Body> {
  const received = await readBytes(req, MAX_REQUEST_BYTES);
  if ('refusal' in received) return received;
  try {
    return { parsed: JSON.parse(received.bytes.toString('utf8')) };
  } catch {
    return { invalid: true };
  }
}

/**
 * Why a parsed body cannot be served, if it cannot: nesting too deep (nestingProblem), or a batch
 * under a revision without batches (`protocolVersion`, the MCP-Protocol-Version header), an empty
 * batch or one over MAX_BATCH_MESSAGES.
 */
export function bodyRefusal(parsed: unknown, protocolVersion: string | undefined): HttpRefusal | undefined {
  const nested = nestingProblem(parsed);
  if (nested !== undefined) return invalid(`${nested.charAt(0).toUpperCase()}${nested.slice(1)}.`);
  if (!Array.isArray(parsed)) return notMessageRefusal(parsed);
  // Batches only where the header names one revision that has them (Node joins repeated headers
  // with commas, which is no revision at all).
  const hasBatches =
    protocolVersion === undefined ||
    (/^\d{4}-\d{2}-\d{2}$/.test(protocolVersion) && protocolVersion < FIRST_WITHOUT_BATCHES);
  if (!hasBatches) {
    return invalid(
      `JSON-RPC batches are not part of MCP protocol ${protocolVersion.slice(0, 20)} (they ended with 2025-03-26): send each message in a request of its own.`,
    );
  }
  if (parsed.length === 0) {
    return invalid(`the batch is empty; a batch holds 1 to ${MAX_BATCH_MESSAGES} messages.`);
  }
  if (parsed.length > MAX_BATCH_MESSAGES) {
    return invalid(
      `A batch holds 1 to ${MAX_BATCH_MESSAGES} messages; this one holds ${parsed.length}. Send more in several requests.`,
    );
  }
  for (const [index, message] of parsed.entries()) {
    const refusal = notMessageRefusal(message, `message ${index + 1} of the batch: `);
    if (refusal) return refusal;
  }
  return sharedIdRefusal(parsed);
}

/** Two requests of a batch with one id would get one answer between them: refused, naming both. */
function sharedIdRefusal(batch: readonly unknown[]): HttpRefusal | undefined {
  const first = new Map<string, number>();
  for (const [index, message] of batch.entries()) {
    const { id, method } = message as { id?: unknown; method?: unknown };
    if (method === undefined || (typeof id !== 'string' && typeof id !== 'number')) continue;
    const key = JSON.stringify(id);
    const earlier = first.get(key);
    if (earlier !== undefined) {
      return invalid(
        `messages ${earlier + 1} and ${index + 1} of the batch share the id ${clip(key, 40)}; each request needs an id of its own, or its answer is lost.`,
      );
    }
    first.set(key, index);
  }
  return undefined;
}

/**
 * Every protocol revision the server speaks, newest first: 2026-07-28, and the 2025 ones (and
 * their predecessors) the SDK speaks with the `initialize` handshake.
 */
export const PROTOCOL_REVISIONS: readonly string[] = [MODERN_REVISION, ...SUPPORTED_PROTOCOL_VERSIONS];

/** Whether a message claims a revision in its envelope (`_meta`), as 2026-07-28 requests do. */
function claimsRevision(message: unknown): boolean {
  const meta = (message as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta;
  return meta !== null && typeof meta === 'object' && PROTOCOL_VERSION_META_KEY in meta;
}

/**
 * A 2025-style request (no revision claimed in its envelope) whose MCP-Protocol-Version names a
 * revision the server does not speak: refused as the protocol's UnsupportedProtocolVersionError,
 * listing every revision it does speak (the SDK's own answer there leaves 2026-07-28 out), with
 * the request's id. A request claiming a revision is the SDK's to answer, as 2026-07-28 has it,
 * unless its header is longer than any revision: the SDK would echo it whole.
 */
export function revisionRefusal(
  protocolVersion: string | undefined,
  message: unknown,
): HttpRefusal | undefined {
  if (protocolVersion === undefined || PROTOCOL_REVISIONS.includes(protocolVersion)) return undefined;
  const claimed = (Array.isArray(message) ? message : [message]).some(claimsRevision);
  if (claimed && protocolVersion.length <= MAX_REVISION_CHARS) return undefined;
  const requested = clip(protocolVersion, MAX_REVISION_CHARS);
  const error = new UnsupportedProtocolVersionError({ supported: [...PROTOCOL_REVISIONS], requested });
  const id = (message as { id?: unknown } | null)?.id;
  return {
    status: 400,
    code: error.code,
    data: error.data,
    ...(typeof id === 'string' || typeof id === 'number' ? { id } : {}),
    message: `Unsupported protocol version ${requested} (MCP-Protocol-Version); this server speaks ${PROTOCOL_REVISIONS.join(', ')}.`,
  };
}

/** The refusal of what the SDK would not read as a JSON-RPC message, naming why. */
function notMessageRefusal(message: unknown, where = ''): HttpRefusal | undefined {
  const problem = notAMessage(message);
  if (problem === undefined) return undefined;
  return invalid(
    `${where}${problem}; send a JSON-RPC 2.0 message: an object with "jsonrpc": "2.0" and a "method" (or a "result" or an "error").`,
  );
}

function invalid(message: string): HttpRefusal {
  return { status: 400, code: INVALID_REQUEST, message: `Invalid Request: ${message}` };
}
