/**
 * The rules a JSON-RPC message must keep for the SDK to read it. Its readers drop a message that
 * breaks one without a word (stdio) or with a generic refusal (HTTP), so a client waits for an
 * answer that never comes or cannot tell what was wrong: both transports check these first and
 * answer with an invalid request (-32600) that names the rule.
 */
import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { counted } from '../format/text.js';
import { MAX_NESTING, nestedDeeperThan } from '../kit/nesting.js';
import { clip } from '../messages.js';

/** The longest protocol revision read (revisions are dates): a longer one is never echoed back. */
export const MAX_REVISION_CHARS = 40;

/**
 * Why a parsed message (or batch) is nested too deeply to be read further, if it is: what reads
 * it next (the SDK's schemas, the tools' checks) is then bounded in depth.
 */
export function nestingProblem(value: unknown): string | undefined {
  return nestedDeeperThan(value)
    ? `the message is nested more than ${MAX_NESTING} levels deep (arrays and objects, in params, arguments, _meta or id); at most ${MAX_NESTING} are allowed`
    : undefined;
}

/** A JSON-RPC id as MCP has it: a string, or a whole number (a number past 2^53 is not one exactly). */
export function isId(id: unknown): id is string | number {
  return typeof id === 'string' || Number.isSafeInteger(id);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The members each kind of message may have: the SDK's reader drops one with any other. */
const MEMBERS = {
  request: ['jsonrpc', 'id', 'method', 'params'],
  result: ['jsonrpc', 'id', 'result'],
  error: ['jsonrpc', 'id', 'error'],
};

/**
 * What keeps parsed JSON from being a JSON-RPC message as MCP sends them, or undefined when nothing
 * does: the rules of the SDK's reader, which drops a message that breaks any of them without a word.
 */
export function notAMessage(value: unknown): string | undefined {
  if (!isObject(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return `the message is ${kind}, not an object`;
  }
  const message = value;
  if (message.jsonrpc !== '2.0') return '"jsonrpc" is not "2.0"';
  if ('id' in message && !isId(message.id)) return '"id" is neither a string nor a whole number';
  let kind: keyof typeof MEMBERS;
  if ('method' in message) {
    kind = 'request';
    if (typeof message.method !== 'string') return '"method" is not a string';
    const { params } = message;
    if (params !== undefined) {
      if (!isObject(params)) return '"params" is not an object';
      const meta = params._meta;
      if (meta !== undefined && !isObject(meta)) return '"params._meta" is not an object';
      if (meta?.progressToken !== undefined && !isId(meta.progressToken))
        return '"params._meta.progressToken" is neither a string nor a whole number';
      const revision = meta?.[PROTOCOL_VERSION_META_KEY];
      if (typeof revision === 'string' && revision.length > MAX_REVISION_CHARS)
        return `"params._meta.${PROTOCOL_VERSION_META_KEY}" is ${counted(revision.length, 'character')} long; a protocol revision is a date, like 2026-07-28`;
    }
  } else if ('id' in message && 'result' in message) {
    kind = 'result';
    if (!isObject(message.result)) return '"result" is not an object';
  } else if ('error' in message) {
    kind = 'error';
    const { error } = message;
    if (!isObject(error) || !Number.isSafeInteger(error.code) || typeof error.message !== 'string')
      return '"error" is not an object with a whole number "code" and a string "message"';
  } else {
    return 'it has no "method", and no "id" with a "result" or an "error"';
  }
  const allowed = MEMBERS[kind];
  const extra = Object.keys(message).find((member) => !allowed.includes(member));
  if (extra === undefined) return undefined;
  const what = kind === 'request' ? 'a request' : 'a response';
  return `it has "${clip(extra, 40)}", which ${what} does not carry (only ${allowed.join(', ')})`;
}
