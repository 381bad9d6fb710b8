/**
 * A script's max_credits, kept as the guard keeps a budget: each request's estimate held before it
 * is sent and refused when what was spent, what is held and the estimate would pass the cap; what
 * the request was charged is spent once it ends. Calls at once each hold their estimate, so that
 * together they cannot pass it either.
 */
import { counted } from '../format/text.js';
import { RefusedCall } from './refused.js';

export class CreditCap {
  private spentCredits = 0;
  private held = 0;

  constructor(readonly most: number) {}

  /** What the script's calls were charged so far. */
  get spent(): number {
    return this.spentCredits;
  }

  /** Holds `estimate`, or refuses the request before it is sent. */
  hold(estimate: number): void {
    if (this.spentCredits + this.held + estimate <= this.most) {
      this.held += estimate;
      return;
    }
    const others = this.held > 0 ? ` (${counted(this.held, 'credit')} held by its calls in flight)` : '';
    throw new RefusedCall(
      `Refused before sending: this call is estimated at ${counted(estimate, 'credit')}, and the script has spent ${this.spentCredits} of its max_credits of ${this.most}${others}. Nothing was charged for it.`,
      'script_limit',
    );
  }

  /** The request held at `estimate` ended, charged `charged`. */
  end(estimate: number, charged: number): void {
    this.held -= estimate;
    this.spentCredits += charged;
  }
}
