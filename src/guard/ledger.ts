/**
 * The credit ledger: what each account (an API key, known only by its hash) has spent and holds in
 * reservation per budget window, and the store interface behind it. Every store applies the same
 * rules: a reservation fits when spent + reserved + amount stays within the budget; settling turns
 * it into spent; releasing drops it; a reservation whose process is gone, or that outlived any
 * call, is counted as spent at its full amount once its request was sent (it may have been
 * charged), and dropped if it was never sent (it cannot have cost anything).
 */

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
}

export type ReserveResult = { ok: true; id: string } | { ok: false; spent: number; reserved: number };

export interface LedgerStore {
  /** Where the ledger lives, for messages (a file path, a Redis address). */
  readonly location: string;
  reserve(request: ReserveRequest): Promise<ReserveResult>;
  /** The reservation's request is about to be written to the service: from now on it may be charged. */
  markSent(id: string): Promise<void>;
  /** The reservation becomes `charged` credits spent. */
  settle(id: string, charged: number): Promise<void>;
  /** The call failed: it costs nothing. */
  release(id: string): Promise<void>;
  /** A cache hit or a joined call: free, and `saved` credits not spent. */
  recordHit(account: string, window: string, tool: string, saved: number): Promise<void>;
  figures(account: string, window: string): Promise<WindowFigures>;
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

/** Longest a call may hold a reservation: retries and waits included, calls end well before this. */
export const RESERVATION_TTL_MS = 5 * 60_000;
/** Windows kept per account (the current ones and a few before, for reporting; `total` is never dropped). */
export const WINDOWS_KEPT = 6;
