/**
 * The guard's view of a call: what it is told when the server is set up and when a call comes,
 * what it gives back (a reservation or a refusal), and what it holds until the call ends.
 */
import type { LedgerStore, ReserveRequest } from './ledger.js';
import type { PricedCall, Refusal } from './refusals.js';
import type { WindowKind } from './windows.js';

export interface GuardOptions {
  store: LedgerStore;
  /** Credits allowed per window; undefined: no budget. */
  budget?: number;
  /** With sign-in: each person's own credits per window, inside `budget` (SVC_USER_CREDIT_BUDGET). */
  personBudget?: number;
  window: WindowKind;
  maxPerCall: number;
  /** Milliseconds since the epoch (the server's clock, frozen by SVC_NOW). */
  now(): number;
  /**
   * What usage and refusals call the ledger instead of its location, and then without the
   * error's own text (which names paths): for callers who do not own the machine (HTTP).
   */
  ledgerKind?: 'file' | 'redis';
  /** Told once when, with no budget, a call's record cannot be written (the call goes on, uncounted). */
  warn?: (message: string) => void;
}

/**
 * A signed-in person's own budget and its window, where it is theirs (own-key sign-in: chosen on the
 * key page, within the operator's SVC_USER_CREDIT_BUDGET) rather than the server's.
 */
export interface PersonLimit {
  budget?: number;
  window: WindowKind;
}

/** What the guard needs to know of a call; the rule and the parameters say how to make a refused call fit. */
export interface GuardedCall extends PricedCall {
  account: string;
  /** The signed-in person making it (personOf), whose own budget it must fit too. */
  person?: string;
  /** The person's own budget and window, when not the server's. */
  personLimit?: PersonLimit;
  tool: string;
}

export interface Reservation {
  /** The guard's handle of the call, which settle, release and markSent take. */
  id: string;
  account: string;
  window: string;
  tool: string;
  estimate: number;
}

export type Admission = { ok: true; reservation: Reservation } | Refusal;

/** A reservation not yet settled or released, and the write that marked it sent, once it was. */
export interface OpenCall {
  /** What the pipeline holds (Reservation.id): the store's id, or for a record-only call the guard's own. */
  handle: string;
  /** The account's reservation in the store: undefined until a record-only call is sent, or when it could not be written. */
  id?: string;
  estimate: number;
  /** The same credits held against the person's own budget, ended with the account's. */
  personId?: string;
  /** That budget, should the person's reservation be lost and taken again. */
  personBudget?: number;
  /** What is reserved (the account's, then the person's): a record-only call's are written once it is sent. */
  requests: [ReserveRequest, ReserveRequest | undefined];
  /** The mark, once the call's turn came: a refusal when the call may not be sent after all. */
  sent?: Promise<Refusal | undefined>;
}
