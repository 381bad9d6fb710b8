/**
 * The credit guard: before a call is sent, its estimate must fit under the per-call limit and in
 * what is left of the account's budget for the window; the estimate is reserved, then settled from
 * what the service charged, or released when the call fails. Refusals say what the call would
 * cost, what is left, when the window rolls and how to make the call fit.
 */
import { createHash } from 'node:crypto';
import type { CreditRule } from '../catalog/credits.js';
import { largestFit } from './fit.js';
import { LedgerDamagedError, type LedgerStore, type ToolFigures } from './ledger.js';
import { type BudgetWindow, describeReset, type WindowKind, windowAt } from './windows.js';

export interface GuardOptions {
  store: LedgerStore;
  /** Credits allowed per window; undefined: no budget. */
  budget?: number;
  window: WindowKind;
  maxPerCall: number;
  /** Milliseconds since the epoch (the server's clock, frozen by SVC_NOW). */
  now(): number;
}

/** Hashes already computed: a process sees a handful of keys, each on every call. */
const accounts = new Map<string, string>();
const ACCOUNTS_KEPT = 1000;

/** An API key as the ledger knows it: a short hash, never the key. */
export function accountOf(apiKey: string): string {
  let account = accounts.get(apiKey);
  if (account === undefined) {
    account = `key:${createHash('sha256').update(apiKey).digest('hex').slice(0, 16)}`;
    if (accounts.size >= ACCOUNTS_KEPT) accounts.clear();
    accounts.set(apiKey, account);
  }
  return account;
}

/** What the guard needs to know of a call. */
export interface GuardedCall {
  account: string;
  tool: string;
  estimate: number;
  /** The endpoint's rule and the call's parameters, to say how to make a refused call fit. */
  rule: CreditRule;
  params: Record<string, unknown>;
}

export interface Reservation {
  /** Undefined when the ledger could not record an unbudgeted call (the call goes on). */
  id: string | undefined;
  account: string;
  window: string;
  tool: string;
  estimate: number;
}

export type Admission =
  | { ok: true; reservation: Reservation }
  /** `reason`: per_call_limit, budget or ledger. */
  | { ok: false; message: string; reason: 'per_call_limit' | 'budget' | 'ledger' };

/** The guard's figures for one account, as get_credit_usage and svc://credits show them. */
export interface CreditUsage {
  window: WindowKind;
  budget: number | null;
  spent: number;
  reserved: number;
  left: number | null;
  resets_at: string | null;
  max_credits_per_call: number;
  by_tool: Record<string, ToolFigures>;
  cache_hits: number;
  credits_saved: number;
  ledger: string;
  /** Set when the ledger cannot be used: why, and what to do. */
  problem?: string;
}

export class CreditGuard {
  /** The window of the last call, and when it began: reused until the clock leaves it. */
  private current: { window: BudgetWindow; from: number } | undefined;

  constructor(private readonly options: GuardOptions) {}

  private window(): BudgetWindow {
    const now = this.options.now();
    const c = this.current;
    if (c && now >= c.from && (c.window.resetsAt === null || now < c.window.resetsAt.getTime()))
      return c.window;
    this.current = { window: windowAt(this.options.window, now), from: now };
    return this.current.window;
  }

  async admit(call: GuardedCall): Promise<Admission> {
    const { budget, maxPerCall } = this.options;
    const nowSeconds = Math.floor(this.options.now() / 1000);
    if (call.estimate > maxPerCall) {
      const fit = largestFit(call.rule, call.params, maxPerCall, nowSeconds);
      return {
        ok: false,
        reason: 'per_call_limit',
        message: `Refused before sending: this call is estimated at ${credits(call.estimate)}, over the limit of ${maxPerCall} per call (SVC_MAX_CREDITS_PER_CALL). ${fit ?? 'Ask for less data in one call, or raise SVC_MAX_CREDITS_PER_CALL.'}`,
      };
    }
    const window = this.window();
    const reservation: Reservation = {
      id: undefined,
      account: call.account,
      window: window.id,
      tool: call.tool,
      estimate: call.estimate,
    };
    let result: Awaited<ReturnType<LedgerStore['reserve']>>;
    try {
      result = await this.options.store.reserve({ ...reservation, amount: call.estimate, budget });
    } catch (error) {
      // Never spend credits that cannot be counted; without a budget there is nothing to protect.
      if (budget === undefined) return { ok: true, reservation };
      return { ok: false, reason: 'ledger', message: problemOf(error, this.options.store.location) };
    }
    if (result.ok) return { ok: true, reservation: { ...reservation, id: result.id } };
    const left = Math.max(0, (budget ?? 0) - result.spent - result.reserved);
    const held = result.reserved > 0 ? `, ${credits(result.reserved)} held by calls in flight` : '';
    const fit = left > 0 ? largestFit(call.rule, call.params, left, nowSeconds) : undefined;
    const advice =
      fit ??
      `Nothing this size fits now: wait until the window rolls, or raise SVC_CREDIT_BUDGET${left > 0 ? ' (or ask for less data)' : ''}.`;
    return {
      ok: false,
      reason: 'budget',
      message: `Refused before sending: this call is estimated at ${credits(call.estimate)}, but ${credits(left)} of the ${window.kind === 'total' ? 'total' : `${window.kind}'s`} budget of ${budget} are left (${result.spent} spent${held}). The window rolls ${describeReset(window, this.options.now())}. ${advice}`,
    };
  }

  /** The call's request is about to be written to the service: from now on it may be charged. */
  async markSent(reservation: Reservation): Promise<void> {
    if (reservation.id === undefined) return;
    await this.options.store.markSent(reservation.id).catch(() => {});
  }

  /** The call was answered: it cost `charged` credits (the service's count, or the estimate). */
  async settle(reservation: Reservation, charged: number): Promise<void> {
    if (reservation.id === undefined) return;
    await this.options.store.settle(reservation.id, charged).catch(() => {});
  }

  /** The call failed: errors cost nothing. */
  async release(reservation: Reservation): Promise<void> {
    if (reservation.id === undefined) return;
    await this.options.store.release(reservation.id).catch(() => {});
  }

  /** A cache hit or a joined call: free, and it saved what the original answer cost. */
  recordHit(account: string, tool: string, saved: number): void {
    this.options.store.recordHit(account, this.window().id, tool, saved).catch(() => {});
  }

  async usage(account: string): Promise<CreditUsage> {
    const window = this.window();
    const { budget } = this.options;
    const base = {
      window: window.kind,
      budget: budget ?? null,
      resets_at: window.resetsAt?.toISOString() ?? null,
      max_credits_per_call: this.options.maxPerCall,
      ledger: this.options.store.location,
    };
    try {
      const figures = await this.options.store.figures(account, window.id);
      return {
        ...base,
        ...figures,
        left: budget === undefined ? null : Math.max(0, budget - figures.spent - figures.reserved),
      };
    } catch (error) {
      const empty = { spent: 0, reserved: 0, left: null, by_tool: {}, cache_hits: 0, credits_saved: 0 };
      return { ...base, ...empty, problem: problemOf(error, this.options.store.location) };
    }
  }

  /** Fails, saying why, when the ledger cannot be written (a readiness check). */
  check(): Promise<void> {
    return this.options.store.check();
  }

  close(): Promise<void> {
    return this.options.store.close();
  }
}

function credits(n: number): string {
  return `${n} credit${n === 1 ? '' : 's'}`;
}

function problemOf(error: unknown, location: string): string {
  if (error instanceof LedgerDamagedError) return error.message;
  return `The credit ledger at ${location} cannot be used (${(error as Error)?.message ?? error}), so budgeted calls are refused: credits that cannot be counted are never spent.`;
}
