/** A call refused before anything was sent, and why (for metrics). */
import { counted } from '../format/text.js';
import type { RefusalReason } from '../ops/events.js';

export class RefusedCall extends Error {
  constructor(
    message: string,
    readonly reason: RefusalReason,
  ) {
    super(message);
  }
}

/**
 * The refusal of a request the person was not asked about though its estimate asks first
 * (SVC_CONFIRM_CREDITS): priced free when the call began, its cached answer expired before it was read.
 */
export function unaskedRefusal(estimate: number, threshold: number): RefusedCall {
  return new RefusedCall(
    `Not sent: the answer the cache held expired as the call began, and this request (estimated at ${counted(estimate, 'credit')}; SVC_CONFIRM_CREDITS=${threshold} asks first) was not put to you. Nothing was charged. Call again to be asked.`,
    'not_confirmed',
  );
}
