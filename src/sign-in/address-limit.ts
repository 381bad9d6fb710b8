/**
 * At most `tries` of one kind of request from one address in a sliding window, so that sign-in
 * cannot be used to guess keys or to fill the store with registrations. Kept per process, for at
 * most 10,000 addresses (the oldest forgotten first).
 */
import { LRUCache } from 'lru-cache';

export class AddressLimit {
  private readonly seen: LRUCache<string, number[]>;

  constructor(
    private readonly tries: number,
    private readonly windowMs: number,
  ) {
    this.seen = new LRUCache({ max: 10_000, ttl: windowMs });
  }

  /** Counts one more from `address`; false (and not counted) when it has made `tries` in the window. */
  allow(address: string): boolean {
    const now = Date.now();
    const recent = (this.seen.get(address) ?? []).filter((at) => at > now - this.windowMs);
    if (recent.length >= this.tries) return false;
    this.seen.set(address, [...recent, now]);
    return true;
  }
}
