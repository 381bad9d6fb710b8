/**
 * oidc-provider's storage adapter over the sign-in store: one adapter a model (Grant,
 * AuthorizationCode, AccessToken, RefreshToken, Client, Interaction, Session, …), each record kept
 * for the time the provider gives it (grants and registered clients: while used), found by id, by its interaction uid, and dropped with its grant.
 */
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { type SignInStore, seconds, UNUSED_SECONDS } from './store.js';

/** Kept while used, not for their own lifetime: each sign-in and refresh keeps them another UNUSED_SECONDS. */
const KEPT_WHILE_USED = new Set(['Grant', 'Client']);

export function adapterOver(store: SignInStore) {
  return class implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      await store.put(this.model, id, {
        payload: payload as Record<string, unknown>,
        expiresAt: KEPT_WHILE_USED.has(this.model)
          ? seconds() + UNUSED_SECONDS
          : expiresIn === undefined
            ? undefined
            : seconds() + expiresIn,
        grantId: payload.grantId,
        uid: payload.uid,
      });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return (await store.get(this.model, id))?.payload as AdapterPayload | undefined;
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return (await store.byUid(this.model, uid))?.record.payload as AdapterPayload | undefined;
    }

    /** No device flow here: there are no user codes to find. */
    async findByUserCode(): Promise<undefined> {
      return undefined;
    }

    async consume(id: string): Promise<void> {
      const found = await store.get(this.model, id);
      if (!found) return;
      await store.put(this.model, id, {
        ...found,
        payload: { ...found.payload, consumed: Math.floor(Date.now() / 1000) },
      });
    }

    async destroy(id: string): Promise<void> {
      await store.delete(this.model, id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await store.dropGrant(grantId);
    }
  };
}
