/**
 * The credit ledger: what each account (an API key, known only by its hash) has spent and holds in
 * reservation per budget window, and the store interface behind it. Every store applies the same
 * rules, written here as pure functions over a state object for the JSON file store (Node 20) and
 * again in SQL (sqlite-ledger.ts) and Lua (redis-ledger.ts): a reservation fits
 * when spent + reserved + amount stays within the budget; settling turns it into spent; releasing
 * drops it; a reservation whose process is gone is counted as spent when its request was sent (the
 * service may have charged it), and dropped when it was not (nothing reached the service).
 */
import { z } from 'zod';

export interface ToolFigures {
  calls: number;
  credits: number;
  cache_hits: number;
}

export interface WindowFigures {
  spent: number;
  /** Credits held by calls in flight. */
  reserved: number;
  by_tool: Record<string, ToolFigures>;
  cache_hits: number;
  credits_saved: number;
}

export interface ReserveRequest {
  account: string;
  window: string;
  tool: string;
  amount: number;
  /** Credits allowed in the window; undefined: no budget, always fits. */
  budget?: number;
  /**
   * Its request is being sent now, so it is recorded as sent: a call without a budget writes its
   * reservation only then, one write instead of a reservation and a mark.
   */
  sent?: boolean;
}

export type ReserveResult = { ok: true; id: string } | { ok: false; spent: number; reserved: number };

export interface LedgerStore {
  /** Where the ledger lives, for messages (a file path, a Redis address). */
  readonly location: string;
  reserve(request: ReserveRequest): Promise<ReserveResult>;
  /** The reservation becomes `charged` credits spent. */
  settle(id: string, charged: number): Promise<void>;
  /**
   * The call's request is about to be written to the service: from now on it may have been charged.
   * False when the reservation is gone (reaped as never sent, e.g. once its owner's lease ran out).
   */
  markSent(id: string): Promise<boolean>;
  /**
   * The call's request failed without reaching the service, or was answered with an error (free),
   * and the call waits to try again: not sent until it is marked again. A reservation gone is left so.
   */
  markUnsent(id: string): Promise<void>;
  /** The call cost nothing: never sent, or answered with an error. */
  release(id: string): Promise<void>;
  /** A cache hit or a joined call: free, and `saved` credits not spent. */
  recordHit(account: string, window: string, tool: string, saved: number): Promise<void>;
  /**
   * A call answered by the server itself, sending nothing (a query over kept tables): a call of its
   * tool, free. Counted only for an account with figures in the window (a request sent, a cache
   * hit): a key the service has not seen, made up, leaves nothing on the ledger.
   */
  recordFree(account: string, window: string, tool: string): Promise<void>;
  figures(account: string, window: string): Promise<WindowFigures>;
  /** Every account with figures or calls in flight in the window (keys and signed-in people). */
  accounts(window: string): Promise<string[]>;
  /** Fails, saying why, when the ledger cannot be written (a readiness check). */
  check(): Promise<void>;
  close(): Promise<void>;
}

/** The ledger cannot be read as it is: budgeted calls stop until a person looks at it. */
export class LedgerDamagedError extends Error {
  override name = 'LedgerDamagedError';
  constructor(
    readonly location: string,
    readonly reason: string,
  ) {
    super(
      `The credit ledger at ${location} is damaged (${reason}). Budgeted calls are refused until it is repaired: check it, then move it aside to start a new one (its totals are then lost).`,
    );
  }
}

/**
 * A shared ledger's data is gone (its store restarted empty, was flushed, or evicted its keys):
 * budgeted calls stop rather than count the spend again from zero, until a person says to start afresh.
 */
export class LedgerLostError extends Error {
  override name = 'LedgerLostError';
}

// ---------------------------------------------------------------- state and its rules

const toolFigures = z.object({ calls: z.number(), credits: z.number(), cache_hits: z.number() });
const windowTotals = z.object({
  spent: z.number(),
  by_tool: z.record(z.string(), toolFigures),
  cache_hits: z.number(),
  credits_saved: z.number(),
});
const heldReservation = z.object({
  account: z.string(),
  window: z.string(),
  tool: z.string(),
  amount: z.number(),
  pid: z.number(),
  /** The process that holds it: a pid alone may be reused after a restart. */
  owner: z.string(),
  at: z.number(),
  /** Whether its request was written to the service; a reservation from before this field counts as sent. */
  sent: z.boolean().default(true),
});

export const ledgerState = z.object({
  accounts: z.record(z.string(), z.record(z.string(), windowTotals)),
  reservations: z.record(z.string(), heldReservation),
});
export type LedgerState = z.infer<typeof ledgerState>;
type WindowTotals = z.infer<typeof windowTotals>;
export type HeldReservation = z.infer<typeof heldReservation>;

export function emptyState(): LedgerState {
  return { accounts: {}, reservations: {} };
}

/**
 * Longest a call may hold a reservation: past a turn's wait and its requests at the longest
 * SVC_TIMEOUT_MS (8 min, time-bounds.ts), so a call still under way is never counted as gone.
 */
export const RESERVATION_TTL_MS = 10 * 60_000;
/** Windows kept per account (the current ones and a few before, for reporting). */
export const WINDOWS_KEPT = 6;

function totals(state: LedgerState, account: string, window: string): WindowTotals {
  state.accounts[account] ??= {};
  const windows = state.accounts[account];
  windows[window] ??= { spent: 0, by_tool: {}, cache_hits: 0, credits_saved: 0 };
  const ids = Object.keys(windows);
  // Bounded: drop the oldest windows (ids sort by date within a kind; `total` is never dropped).
  for (const id of ids
    .filter((i) => i !== 'total' && i !== window)
    .sort()
    .slice(0, Math.max(0, ids.length - WINDOWS_KEPT)))
    delete windows[id];
  return windows[window];
}

function tool(t: WindowTotals, name: string): ToolFigures {
  t.by_tool[name] ??= { calls: 0, credits: 0, cache_hits: 0 };
  return t.by_tool[name];
}

function reservedIn(state: LedgerState, account: string, window: string): number {
  let sum = 0;
  for (const r of Object.values(state.reservations))
    if (r.account === account && r.window === window) sum += r.amount;
  return sum;
}

function spend(
  state: LedgerState,
  r: Pick<HeldReservation, 'account' | 'window' | 'tool'>,
  credits: number,
): void {
  const t = totals(state, r.account, r.window);
  t.spent += credits;
  const figures = tool(t, r.tool);
  figures.calls += 1;
  figures.credits += credits;
}

/**
 * Reservations whose process has ended, or that outlived any call, end: one whose request was sent
 * is counted as spent at its full amount (the service may have charged it), one never sent is
 * dropped (nothing reached the service). Returns how many ended.
 */
export function reapReservations(
  state: LedgerState,
  nowMs: number,
  ended: (r: HeldReservation) => boolean,
): number {
  let reaped = 0;
  for (const [id, r] of Object.entries(state.reservations)) {
    if (nowMs - r.at > RESERVATION_TTL_MS || ended(r)) {
      if (r.sent) spend(state, r, r.amount);
      delete state.reservations[id];
      reaped++;
    }
  }
  return reaped;
}

export function applyReserve(
  state: LedgerState,
  request: ReserveRequest,
  held: Omit<HeldReservation, 'account' | 'window' | 'tool' | 'amount' | 'sent'> & { id: string },
): ReserveResult {
  const spent = totals(state, request.account, request.window).spent;
  const reserved = reservedIn(state, request.account, request.window);
  if (request.budget !== undefined && spent + reserved + request.amount > request.budget) {
    return { ok: false, spent, reserved };
  }
  const { id, ...owner } = held;
  state.reservations[id] = {
    account: request.account,
    window: request.window,
    tool: request.tool,
    amount: request.amount,
    ...owner,
    sent: request.sent ?? false,
  };
  return { ok: true, id };
}

export function applySettle(state: LedgerState, id: string, charged: number): void {
  const r = state.reservations[id];
  if (!r) return;
  spend(state, r, charged);
  delete state.reservations[id];
}

export function applyMarkSent(state: LedgerState, id: string, sent = true): boolean {
  const r = state.reservations[id];
  if (r) r.sent = sent;
  return r !== undefined;
}

export function applyRelease(state: LedgerState, id: string): void {
  delete state.reservations[id];
}

/** `count` cache hits (or joined calls) that together saved `saved` credits. */
export function applyHit(
  state: LedgerState,
  account: string,
  window: string,
  toolName: string,
  saved: number,
  count = 1,
  calls = 0,
): void {
  if (count === 0 && saved === 0 && !knownIn(state, account, window)) return;
  const t = totals(state, account, window);
  t.cache_hits += count;
  t.credits_saved += saved;
  tool(t, toolName).cache_hits += count;
  tool(t, toolName).calls += calls;
}

/**
 * Whether the account has figures in the window: a request of its was sent, or a cache hit. A free
 * call is counted only then, so that calls with made-up keys leave nothing behind.
 */
function knownIn(state: LedgerState, account: string, window: string): boolean {
  return state.accounts[account]?.[window] !== undefined;
}

export function readFigures(state: LedgerState, account: string, window: string): WindowFigures {
  const t = state.accounts[account]?.[window];
  return {
    spent: t?.spent ?? 0,
    reserved: reservedIn(state, account, window),
    by_tool: structuredClone(t?.by_tool ?? {}),
    cache_hits: t?.cache_hits ?? 0,
    credits_saved: t?.credits_saved ?? 0,
  };
}

export function accountsIn(state: LedgerState, window: string): string[] {
  const found = new Set(Object.keys(state.accounts).filter((a) => state.accounts[a]?.[window] !== undefined));
  for (const r of Object.values(state.reservations)) if (r.window === window) found.add(r.account);
  return [...found];
}
