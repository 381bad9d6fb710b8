/** What the transport knows of a call besides its arguments: who makes it, and how to stop or ask. */
import type { InputRequiredResult } from '@modelcontextprotocol/server';
import type { PersonLimit } from '../guard/guard.js';

/**
 * A person's question that goes back to the client as the call's answer (2026-07-28): the client
 * calls again with the answer, and that call is the one sent.
 */
export class Question {
  constructor(readonly result: InputRequiredResult) {}
}

/** The person's answer to a costly call's question: true to send it, false when declined; or the question, to go back first. */
export type Confirmed = boolean | Question;

export interface CallContext {
  /** The caller's cancel signal: a cancelled call stops its upstream request. */
  signal?: AbortSignal;
  /** A key the caller brought (HTTP); else the data source's own. */
  apiKey?: string;
  /** The signed-in person (HTTP with sign-in, as personOf names them), whose own budget applies too. */
  person?: string;
  /** The person's own budget and window (own-key sign-in), when not the server's. */
  personLimit?: PersonLimit;
  /** The person may see everyone's figures (the admin scope). */
  admin?: boolean;
  /**
   * Asks the person whether to send a costly call (SVC_CONFIRM_CREDITS) at `price` credits. Absent
   * where the client cannot ask (no elicitation): such calls go on as before.
   */
  confirm?: (question: string, price: number) => Promise<Confirmed>;
}
