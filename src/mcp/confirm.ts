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
  type InputRequiredResult,
  inputRequired,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { canonicalParams } from '../catalog/params.js';

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

export interface Confirmation {
  /** True to send, false when declined, `asked` when the question goes back first (2026-07-28). */
  confirm(question: string): Promise<boolean | 'asked'>;
  /** Set when a 2026-07-28 call must go back to ask: the result to answer with. */
  pending?: InputRequiredResult;
}

/** The tool call being confirmed: its tool and arguments. */
export interface ConfirmedCall {
  name: string;
  args: Record<string, unknown> | undefined;
}

/**
 * What ties a 2026-07-28 answer to its question: the state the question goes out with is a hash of
 * the tool and its arguments, and an answer counts only on a retry of that same call, so a host's
 * answer stays with the call it was given for (one sent unasked, or given for another call, gets
 * the question asked again). It is not signed, and needs no secret shared by replicas: it is no
 * guard against a host that forges it, which could as well answer for the person itself.
 */
function questionState({ name, args }: ConfirmedCall): string {
  return `confirm.${createHash('sha256')
    .update(`${name}|${canonicalParams(args ?? {})}`)
    .digest('base64url')}`;
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
): Confirmation | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const modern = envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  if (modern !== undefined) {
    if (!asksForms(modern.elicitation)) return undefined;
    const state = questionState(call);
    const confirmation: Confirmation = {
      async confirm(question) {
        const responses = ctx.mcpReq.inputResponses;
        if (responses && QUESTION in responses && ctx.mcpReq.requestState() === state) {
          return acceptedContent(responses, QUESTION)?.confirm === true;
        }
        confirmation.pending = inputRequired({
          inputRequests: {
            [QUESTION]: inputRequired.elicit({
              mode: 'form',
              message: question,
              requestedSchema: ANSWER_SCHEMA,
            }),
          },
          requestState: state,
        });
        return 'asked';
      },
    };
    return confirmation;
  }
  if (!asksForms(mcp.server.getClientCapabilities()?.elicitation)) return undefined;
  return {
    async confirm(question) {
      const answer = await ctx.mcpReq
        .elicitInput(
          { mode: 'form', message: question, requestedSchema: ANSWER_SCHEMA },
          { timeout: CONFIRM_WAIT_MS, signal: ctx.mcpReq.signal },
        )
        .catch(() => undefined);
      return answer?.action === 'accept' && answer.content?.confirm === true;
    },
  };
}
