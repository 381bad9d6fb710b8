/**
 * The call path's refusals and its confirmation of costly calls: a call estimated at
 * SVC_CONFIRM_CREDITS or more is put to the person before anything is reserved or sent (mcp/confirm.ts
 * asks, in the way the client's revision has), and a call that joined another's request ends only
 * with its own person's answer.
 */

import { counted } from '../format/text.js';
import { largestFit } from '../guard/fit.js';
import type { Endpoint } from '../kit/index.js';
import type { RefusalReason } from '../ops/events.js';
import type { Services } from '../services/index.js';
import type { CallContext } from './context.js';

type Confirm = NonNullable<CallContext['confirm']>;

/** A call refused before anything was sent, and why (for metrics). */
export class RefusedCall extends Error {
  constructor(
    message: string,
    readonly reason: RefusalReason,
    /** For a call the person declined: whose question it was (calls that joined its request were not asked). */
    readonly asker?: Confirm,
  ) {
    super(message);
  }
}

/** A call that went back to the client with a question (2026-07-28): its retry is the call. */
export class QuestionAsked extends Error {
  constructor(readonly asker: Confirm) {
    super('asked');
  }
}

/** How often a call that joined identical calls' requests, each ended by its own person's question, tries again. */
const JOINS_AFTER_QUESTIONS = 3;

/**
 * The shared request's answer, unless it ended with another caller's confirmation (its question, or
 * its person declining), met by joining that caller's request: then this call goes again, asking
 * its own person if it must, or no one where its client cannot be asked.
 */
export async function ownConfirmation<T>(shared: () => Promise<T>, confirm: Confirm | undefined): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await shared();
    } catch (error) {
      const asker = error instanceof QuestionAsked || error instanceof RefusedCall ? error.asker : undefined;
      if (asker === undefined || asker === confirm || attempt >= JOINS_AFTER_QUESTIONS) throw error;
    }
  }
}

/**
 * A call estimated at SVC_CONFIRM_CREDITS or more is put to the person first, where the client can
 * ask: declined, or not answered, it is refused before anything is reserved or sent.
 */
export async function confirmCostly(
  services: Services,
  endpoint: Endpoint,
  params: Record<string, unknown>,
  estimate: number,
  call: { account: string; confirm?: CallContext['confirm'] },
): Promise<void> {
  const now = Math.floor(services.now() / 1000);
  await confirmEstimate(services, endpoint.title, estimate, call, (most) =>
    largestFit(endpoint.credits, params, most, now),
  );
}

/**
 * The question for a call titled `title` at `estimate` credits in all, asked as confirmCostly asks
 * it; `cheaper` gives the arguments that would cost at most the credits it is given, if any do.
 */
export async function confirmEstimate(
  services: Services,
  title: string,
  estimate: number,
  call: { account: string; confirm?: CallContext['confirm'] },
  cheaper: (most: number) => string | undefined = () => undefined,
): Promise<void> {
  const threshold = services.config.confirmCredits;
  if (!call.confirm || threshold === 0 || estimate < threshold) return;
  const { left, window } = await services.guard.usage(call.account);
  // Not put to the person when the guard refuses it anyway (over the per-call limit or what is
  // left): its refusal says how to make the call fit, which the question's advice would not.
  if (estimate > services.config.maxCreditsPerCall || (left !== null && estimate > left)) return;
  const fit = cheaper(threshold - 1);
  const budget = left === null ? 'No budget is set.' : `${counted(left, 'credit')} left for the ${window}.`;
  const question = `${title}: this call is estimated at ${counted(estimate, 'credit')}. ${budget}${fit ? ` For less: ${fit.replace(/^To make it fit now: /, '')}` : ''} Send it?`;
  const answer = await call.confirm(question, estimate);
  if (answer === 'asked') throw new QuestionAsked(call.confirm);
  if (!answer) {
    throw new RefusedCall(
      `Not sent: the call was not confirmed (estimated at ${counted(estimate, 'credit')}; SVC_CONFIRM_CREDITS=${threshold} asks first). Nothing was charged.${fit ? ` ${fit}` : ''}`,
      'not_confirmed',
      call.confirm,
    );
  }
}
