/**
 * A call estimated at SVC_CONFIRM_CREDITS or more is put to the person before anything is reserved
 * or sent, where the client can ask (mcp/confirm.ts asks in the way the client's revision has). The
 * answer is a value: go on, the question to send back first, or a refusal when declined.
 */

import { counted } from '../format/text.js';
import { largestFit } from '../guard/fit.js';
import type { Tool, ToolContext } from '../kit/index.js';
import type { Services } from '../services/index.js';
import type { CallContext, Question } from './context.js';
import { priceRequest, refuseOverLimits } from './estimate.js';
import { refusalBeforeSending } from './fetch.js';
import { RefusedCall } from './refused.js';

/**
 * What the call may do after its confirmation: ask first (the question to answer with); or go on,
 * where a request estimated at `unaskedFrom` credits or more is refused, not sent, since the
 * person was not asked about it (an answer the cache held that expired as the call began).
 */
export type Confirmation = Question | { unaskedFrom?: number };

/** Who is asked, and what the call names: a cursor's page is a kept result's, free. */
interface Asked {
  account: string;
  confirm?: CallContext['confirm'];
  cursor?: string;
}

/**
 * The confirmation of a call with these checked parameters: an endpoint's request priced as it
 * would be sent (free, and not asked, when the cache holds its answer or a cursor names a page), a
 * local tool's requests by its estimate, over the limits the guard refuses anyway.
 */
export async function confirmCall(
  services: Services,
  tool: Tool,
  params: Record<string, unknown>,
  call: Asked,
  context: ToolContext,
): Promise<Confirmation> {
  if (tool.kind === 'local') {
    const estimate = await refuseOverLimits(services, tool, params, context);
    return estimate === undefined ? {} : confirmEstimate(services, tool.title, estimate, call);
  }
  const threshold = services.config.confirmCredits;
  if (!call.confirm || threshold === 0) return {};
  if (call.cursor !== undefined) return { unaskedFrom: threshold };
  const priced = await priceRequest(services, call.account, tool, params);
  if (priced.cached) return { unaskedFrom: threshold };
  const now = Math.floor(services.now() / 1000);
  // Not put to the person: the fetch refuses it, free (too large to read, or past SVC_PLAN's history).
  if (refusalBeforeSending(tool, priced.params, now, services.config.plan) !== undefined) return {};
  return confirmEstimate(services, tool.title, priced.credits, call, (most) =>
    largestFit(tool.credits, priced.params, most, now),
  );
}

/**
 * The question for a call titled `title` at `estimate` credits in all; `cheaper` gives the
 * arguments that would cost at most the credits it is given, if any do. Declined, or not answered,
 * the call is refused before anything is reserved or sent.
 */
export async function confirmEstimate(
  services: Services,
  title: string,
  estimate: number,
  call: Asked,
  cheaper: (most: number) => string | undefined = () => undefined,
): Promise<Confirmation> {
  const threshold = services.config.confirmCredits;
  if (!call.confirm || threshold === 0) return {};
  if (estimate < threshold) return { unaskedFrom: threshold };
  const { left, window } = await services.guard.usage(call.account);
  // Not put to the person when the guard refuses it anyway (over the per-call limit or what is
  // left): its refusal says how to make the call fit, which the question's advice would not.
  if (estimate > services.config.maxCreditsPerCall || (left !== null && estimate > left)) return {};
  // What costs less than the threshold, and so is sent without the question ("send limit=400 or less").
  const less = cheaper(threshold - 1)?.replace(/^To make it fit now: /, '');
  const budget = left === null ? 'No budget is set.' : `${counted(left, 'credit')} left for the ${window}.`;
  const question = `${title}: this call is estimated at ${counted(estimate, 'credit')}. ${budget}${less ? ` For less: ${less}` : ''} Send it?`;
  const answer = await call.confirm(question, estimate);
  if (answer === true) return {};
  if (answer !== false) return answer;
  throw new RefusedCall(
    `Not sent: the call was not confirmed (estimated at ${counted(estimate, 'credit')}; SVC_CONFIRM_CREDITS=${threshold} asks first). Nothing was charged.${less ? ` For less, sent without asking: ${less}` : ''}`,
    'not_confirmed',
  );
}
