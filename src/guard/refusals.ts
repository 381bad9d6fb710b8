/**
 * What the guard says when it refuses a call before sending it: what the call would cost, what is
 * left, when the window rolls and how to make the call fit.
 */

import { counted } from '../format/text.js';
import type { CreditRule } from '../kit/credits.js';
import { largestFit } from './fit.js';
import { LedgerDamagedError, LedgerLostError, type LedgerStore } from './ledger.js';
import { type BudgetWindow, describeReset } from './windows.js';

/** A call refused before it was sent; `reason`: per_call_limit, budget, ledger or stopping. */
export type Refusal = {
  ok: false;
  message: string;
  reason: 'per_call_limit' | 'budget' | 'ledger' | 'stopping';
};

/** A call as priced: its estimate, and its rule and parameters, which say how to make it cheaper. */
export interface PricedCall {
  estimate: number;
  rule: CreditRule;
  params: Record<string, unknown>;
}

/** A budget, and what is spent and reserved of it. */
interface Figures {
  budget: number;
  spent: number;
  reserved: number;
}

/** The budget a reservation did not fit in: its figures in the window, and the time. */
export interface Missed extends Figures {
  window: BudgetWindow;
  nowMs: number;
}

export function overPerCallLimit(call: PricedCall, maxPerCall: number, nowMs: number): Refusal {
  const fit = largestFit(call.rule, call.params, maxPerCall, Math.floor(nowMs / 1000));
  return {
    ok: false,
    reason: 'per_call_limit',
    message: `Refused before sending: this call is estimated at ${credits(call.estimate)}, over the limit of ${maxPerCall} per call (SVC_MAX_CREDITS_PER_CALL). ${fit ?? 'Ask for less data in one call, or raise SVC_MAX_CREDITS_PER_CALL.'}`,
  };
}

export function overBudget(call: PricedCall, missed: Missed): Refusal {
  const { budget, spent, reserved, window, nowMs } = missed;
  const left = leftOf(missed);
  const held = reserved > 0 ? `, ${credits(reserved)} held by calls in flight` : '';
  const fit = left > 0 ? largestFit(call.rule, call.params, left, Math.floor(nowMs / 1000)) : undefined;
  const advice =
    fit ??
    `Nothing this size fits now: wait until the window rolls, or raise SVC_CREDIT_BUDGET${left > 0 ? ' (or ask for less data)' : ''}.`;
  return {
    ok: false,
    reason: 'budget',
    message: `Refused before sending: this call is estimated at ${credits(call.estimate)}, but ${credits(left)} of the ${window.kind === 'total' ? 'total' : `${window.kind}'s`} budget of ${budget} are left (${spent} spent${held}). The window rolls ${describeReset(window, nowMs)}. ${advice}`,
  };
}

/** Over the signed-in person's own budget (SVC_USER_CREDIT_BUDGET). */
export function overPersonBudget(estimate: number, missed: Missed): Refusal {
  const { budget, spent, reserved, window, nowMs } = missed;
  const held = reserved > 0 ? `, ${credits(reserved)} held by your calls in flight` : '';
  return {
    ok: false,
    reason: 'budget',
    message: `Refused before sending: this call is estimated at ${credits(estimate)}, but ${credits(leftOf(missed))} of your own budget of ${budget} are left for the ${window.kind === 'total' ? 'total' : window.kind} (${spent} spent${held}; SVC_USER_CREDIT_BUDGET). The window rolls ${describeReset(window, nowMs)}.`,
  };
}

/**
 * A call whose reservation was reaped as never sent while it waited for its turn (on Redis, when
 * its replica was cut from Redis for longer than its lease), and which no longer fits `whose`
 * budget when reserved again.
 */
export function reservationLost(estimate: number, missed: Figures, whose: string): Refusal {
  return {
    ok: false,
    reason: 'budget',
    message: `Refused before sending: this call's reservation was dropped while it waited for its turn (the ledger counted it as never sent), and its ${credits(estimate)} no longer fit: ${credits(leftOf(missed))} of ${whose} of ${missed.budget} are left. Nothing was charged; get_credit_usage shows when the window rolls.`,
  };
}

function leftOf({ budget, spent, reserved }: Figures): number {
  return Math.max(0, budget - spent - reserved);
}

function credits(n: number): string {
  return counted(n, 'credit');
}

/**
 * What the operator is told (once) when, with no budget, a call's record cannot be written: the
 * ledger by its location and the error's own text (a log line is the operator's, not a caller's).
 */
export function unrecordedWarning(error: unknown, store: LedgerStore): string {
  return `The credit ledger at ${store.location} cannot be written (${(error as Error)?.message ?? error}): calls go on without being counted, since no budget is set; get_credit_usage undercounts until it can be written again.`;
}

/**
 * Why a call is refused when the ledger cannot be used. Over HTTP (`ledgerKind`) it names the kind
 * of ledger, not its path or the error's own text; a ledger whose data was lost says so to everyone,
 * since the way out is the same for all.
 */
export function ledgerProblem(
  error: unknown,
  { store, ledgerKind }: { store: LedgerStore; ledgerKind?: 'file' | 'redis' },
): string {
  if (error instanceof LedgerLostError) return error.message;
  if (ledgerKind !== undefined) {
    return `The credit ledger (${ledgerKind}) cannot be used, so budgeted calls are refused: credits that cannot be counted are never spent. The server's operator can see why at /readyz.`;
  }
  if (error instanceof LedgerDamagedError) return error.message;
  return `The credit ledger at ${store.location} cannot be used (${(error as Error)?.message ?? error}), so budgeted calls are refused: credits that cannot be counted are never spent.`;
}
