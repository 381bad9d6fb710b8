/**
 * Access tokens this process checked a moment ago, trusted for TRUSTED_MS without a lookup: a
 * cached call then reads nothing from the sign-in store (tools/bench/sign-in.mjs). A revocation goes
 * through the store's deletes, and one in this process drops every trusted token at once; another
 * process on the machine (SQLite shared through the state directory) stops trusting it within
 * TRUSTED_MS. Not used with Redis, where a revocation on one replica must hold on all at once.
 */
import { LRUCache } from 'lru-cache';
import type { SignInStore } from './store.js';

/** How long a checked token is trusted without a lookup, and never past its expiry. */
export const TRUSTED_MS = 1000;
/** Tokens trusted at once, the least recently used out first. */
const TRUSTED_MOST = 10_000;

export class TrustedTokens<T extends object> {
  /** Expiry by the wall clock (Date), as the tokens' own: a clock moved on ends the trust too. */
  private readonly kept = new LRUCache<string, { checked: T; until: number }>({ max: TRUSTED_MOST });

  /** What `token`'s check gave, while it is trusted. */
  get(token: string): T | undefined {
    const entry = this.kept.get(token);
    if (entry === undefined) return undefined;
    if (entry.until > Date.now()) return entry.checked;
    this.kept.delete(token);
    return undefined;
  }

  /** Trusts `token`, which expires at `expiresAt` (Unix seconds), as checked. */
  trust(token: string, checked: T, expiresAt: number): void {
    this.kept.set(token, { checked, until: Math.min(Date.now() + TRUSTED_MS, expiresAt * 1000) });
  }

  /** The store, dropping every trusted token after each of its deletes (revocation's way). */
  watching(store: SignInStore): SignInStore {
    const dropped = () => this.kept.clear();
    return {
      get: (kind, id) => store.get(kind, id),
      put: (kind, id, record) => store.put(kind, id, record),
      byUid: (kind, uid) => store.byUid(kind, uid),
      extend: (kind, id, expiresAt) => store.extend(kind, id, expiresAt),
      close: () => store.close(),
      delete: (kind, id) => store.delete(kind, id).finally(dropped),
      dropGrant: (grantId) => store.dropGrant(grantId).finally(dropped),
    };
  }
}
