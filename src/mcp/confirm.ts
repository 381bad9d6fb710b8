/**
 * Asking the person before a costly call is sent (SVC_CONFIRM_CREDITS), in the way the client's
 * revision has: on the 2025 revisions a server-to-client `elicitation/create` request the call
 * waits for; on 2026-07-28 an input-required result carrying the same question, which the client
 * answers by calling again with the person's answer. A client that has not declared elicitation
 * is never asked: its calls go on as before.
 */
import { createHash } from 'node:crypto';
import {
  acceptedContent,
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  createRequestStateCodec,
  inputRequired,
  type McpServer,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { type CallContext, Question } from '../call/context.js';
import { canonicalParams } from '../kit/canonical.js';
import type { Services } from '../services/index.js';

/** How long a 2025 client may take to answer before the call is refused (a person is reading). */
export const CONFIRM_WAIT_MS = 120_000;

/** The key of the question in an input-required result, and of its answer on the retry. */
const QUESTION = 'confirm';

const ANSWER_SCHEMA = {
  type: 'object' as const,
  properties: {
    confirm: { type: 'boolean' as const, title: 'Send this call', description: 'Yes to spend the credits.' },
  },
  required: ['confirm'],
};

/** The tool call being confirmed: its tool and arguments. */
export interface ConfirmedCall {
  name: string;
  args: Record<string, unknown> | undefined;
}

/** How long a question's state may be answered: a person reads it, then the host retries. */
const STATE_TTL_SECONDS = 600;

/**
 * What a question is about: the tool, its arguments and the price asked about. The state the
 * question goes out with seals it (an HMAC with the server's confirmation key, for 10 minutes), and
 * an answer counts only on a retry whose own question is the same: a host cannot make one up, and
 * one prepared for another call, or for another price, gets the question asked again.
 */
function questionOf({ name, args }: ConfirmedCall, price: number): string {
  return createHash('sha256')
    .update(`${name}|${canonicalParams(args ?? {})}|${price}`)
    .digest('base64url');
}

/** The seal of each process's services, made once from its confirmation key. */
const seals = new WeakMap<Services, Promise<RequestStateCodec<string>>>();

function sealOf(services: Services): Promise<RequestStateCodec<string>> {
  let seal = seals.get(services);
  if (!seal) {
    seal = services
      .confirmKey()
      .then((key) => createRequestStateCodec<string>({ key, ttlSeconds: STATE_TTL_SECONDS }));
    seals.set(services, seal);
  }
  return seal;
}

/**
 * The client answers form questions: it declares elicitation with `form`, or empty (which means
 * form); one that declares only `url` cannot be asked, and its calls go on as before.
 */
function asksForms(elicitation: ClientCapabilities['elicitation']): boolean {
  if (elicitation === undefined) return false;
  const modes = elicitation as { form?: unknown; url?: unknown };
  return modes.form !== undefined || modes.url === undefined;
}

/** How to ask this request's client, or undefined when it cannot be asked. */
export function askToConfirm(
  mcp: McpServer,
  ctx: ServerContext,
  call: ConfirmedCall,
  services: Services,
): CallContext['confirm'] {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const modern = envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  if (modern !== undefined) {
    if (!asksForms(modern.elicitation)) return undefined;
    return async (question, price) => {
      const seal = await sealOf(services);
      const about = questionOf(call, price);
      const responses = ctx.mcpReq.inputResponses;
      const state = ctx.mcpReq.requestState();
      const answered =
        responses && QUESTION in responses && typeof state === 'string'
          ? await seal.verify(state, ctx).catch(() => undefined)
          : undefined;
      if (answered === about) return acceptedContent(responses ?? {}, QUESTION)?.confirm === true;
      const ask = inputRequired({
        inputRequests: {
          [QUESTION]: inputRequired.elicit({
            mode: 'form',
            message: question,
            requestedSchema: ANSWER_SCHEMA,
          }),
        },
        requestState: await seal.mint(about),
      });
      return new Question(ask);
    };
  }
  if (!asksForms(mcp.server.getClientCapabilities()?.elicitation)) return undefined;
  return async (question) => {
    const answer = await ctx.mcpReq
      .elicitInput(
        { mode: 'form', message: question, requestedSchema: ANSWER_SCHEMA },
        { timeout: CONFIRM_WAIT_MS, signal: ctx.mcpReq.signal },
      )
      .catch(() => undefined);
    return answer?.action === 'accept' && answer.content?.confirm === true;
  };
}
