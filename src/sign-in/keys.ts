/**
 * People's keys at rest, one for each grant (a person's sign-in through one client), dropped with
 * it when it is revoked: each encrypted with AES-256-GCM under the server's secret (SVC_SIGN_IN_SECRET,
 * or on one machine a secret generated into the state directory on first start, mode 0600), with
 * the secret's short id beside it. A key stored under another secret no longer opens: after the
 * secret is rotated, its person is asked to sign in again. The secret also signs the sign-in
 * cookies and the key page's forms, so every replica that shares it accepts them.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import type { PersonLimit } from '../guard/guard.js';
import { makeStateDir } from '../state-dir.js';
import { type SignInStore, seconds, UNUSED_SECONDS } from './store.js';

/** The server's secret: the setting's, else the state directory's (made on first start). */
export function signInSecret(setting: string | undefined, stateDir: string): Buffer {
  if (setting !== undefined) return createHash('sha256').update(setting).digest();
  const path = join(stateDir, 'sign-in.secret');
  const read = () => Buffer.from(readFileSync(path, 'utf8').trim(), 'hex');
  try {
    return read();
  } catch {
    makeStateDir(stateDir);
    try {
      writeFileSync(path, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Made meanwhile by another process starting beside this one: theirs is the secret.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    return read();
  }
}

/** What is kept of a person: their key, sealed, its fingerprint, and the budget they chose on the key page. */
type Sealed = {
  secretId: string;
  iv: string;
  sealed: string;
  tag: string;
  fingerprint?: string;
  limit?: PersonLimit;
};

/** The grants a key was given in, newest last, so that the person can end them all with the key. */
interface KeyGrants {
  grants: string[];
}

/** Grants one key's index remembers: its latest sign-ins (older ones still end after 30 days unused). */
const MOST_GRANTS_A_KEY = 100;

export interface PersonKey {
  key: string;
  limit?: PersonLimit;
}

/**
 * How long an opened key stays in this process's memory, so that a call neither reads nor decrypts
 * it again. Revocation is unaffected (it ends the access tokens, which trusted-tokens.ts trusts for
 * at most a second); a key replaced through another replica reaches this one within this time.
 */
const OPENED_MS = 30_000;

export class PersonKeys {
  private readonly secretId: string;
  private readonly cipherKey: Buffer;
  private readonly fingerprints: Buffer;
  private readonly opened = new LRUCache<string, PersonKey>({ max: 10_000, ttl: OPENED_MS });

  constructor(
    private readonly store: SignInStore,
    private readonly secret: Buffer,
  ) {
    this.cipherKey = this.derive('keys');
    this.fingerprints = this.derive('people');
    this.secretId = createHash('sha256').update(this.cipherKey).digest('hex').slice(0, 12);
  }

  /** What tells one key from another without holding it: its HMAC under the secret. */
  fingerprint(key: string): string {
    return createHmac('sha256', this.fingerprints).update(key).digest('hex').slice(0, 32);
  }

  /** A key of its own for each use of the secret (`cookies`, `forms`, `keys`, `people`). */
  derive(purpose: string): Buffer {
    return createHmac('sha256', this.secret).update(`svc-mcp ${purpose}`).digest();
  }

  /**
   * Stores the key of grant `id` (or of a sign-in still under way, `pending:<uid>`), replacing any
   * it had, for `keepSeconds` unused.
   */
  async save(id: string, key: string, limit?: PersonLimit, keepSeconds = UNUSED_SECONDS): Promise<void> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.cipherKey, iv);
    cipher.setAAD(Buffer.from(id));
    const sealed = Buffer.concat([cipher.update(key, 'utf8'), cipher.final()]);
    const grantId = id.startsWith('pending:') ? undefined : id;
    const fingerprint = grantId === undefined ? undefined : this.fingerprint(key);
    const payload: Sealed = {
      secretId: this.secretId,
      iv: iv.toString('base64'),
      sealed: sealed.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      ...(fingerprint ? { fingerprint } : {}),
      ...(limit ? { limit } : {}),
    };
    const expiresAt = seconds() + keepSeconds;
    this.opened.delete(id);
    await this.store.put('PersonKey', id, { payload: payload, expiresAt, grantId });
    if (grantId && fingerprint) await this.index(fingerprint, grantId, expiresAt);
  }

  /** Notes that the key whose fingerprint this is was given in grant `grantId`. */
  private async index(fingerprint: string, grantId: string, expiresAt: number): Promise<void> {
    const known =
      ((await this.store.get('KeyGrants', fingerprint))?.payload as KeyGrants | undefined)?.grants ?? [];
    const grants = [...known.filter((g) => g !== grantId), grantId].slice(-MOST_GRANTS_A_KEY);
    await this.store.put('KeyGrants', fingerprint, { payload: { grants }, expiresAt });
  }

  /**
   * Ends every sign-in made here with `key` (its grants, their codes and tokens) and deletes the
   * key from this server: the person takes it back. How many sign-ins were ended.
   */
  async forgetKey(key: string): Promise<number> {
    const fingerprint = this.fingerprint(key);
    const index = (await this.store.get('KeyGrants', fingerprint))?.payload as KeyGrants | undefined;
    let ended = 0;
    for (const grantId of index?.grants ?? []) {
      const kept = await this.store.get('PersonKey', grantId);
      if ((kept?.payload as Sealed | undefined)?.fingerprint !== fingerprint) continue;
      await this.store.dropGrant(grantId);
      await this.forget(grantId);
      ended++;
    }
    await this.store.delete('KeyGrants', fingerprint);
    return ended;
  }

  /** The key and budget of grant `id`; undefined when none is kept, or it was sealed under another secret. */
  async open(id: string): Promise<PersonKey | undefined> {
    const known = this.opened.get(id);
    if (known) return known;
    const found = (await this.store.get('PersonKey', id))?.payload as Sealed | undefined;
    if (!found || found.secretId !== this.secretId) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.cipherKey, Buffer.from(found.iv, 'base64'));
      decipher.setAAD(Buffer.from(id));
      decipher.setAuthTag(Buffer.from(found.tag, 'base64'));
      const key = Buffer.concat([decipher.update(Buffer.from(found.sealed, 'base64')), decipher.final()]);
      const opened = { key: key.toString('utf8'), limit: found.limit };
      this.opened.set(id, opened);
      return opened;
    } catch {
      return undefined;
    }
  }

  /** The grant, its key (and the key's index) and its client kept another UNUSED_SECONDS: the person still uses them. */
  async renew(grantId: string, clientId: string): Promise<void> {
    const expiresAt = seconds() + UNUSED_SECONDS;
    await this.store.extend('Grant', grantId, expiresAt);
    await this.store.extend('PersonKey', grantId, expiresAt);
    await this.store.extend('Client', clientId, expiresAt);
    const fingerprint = ((await this.store.get('PersonKey', grantId))?.payload as Sealed | undefined)
      ?.fingerprint;
    if (fingerprint) await this.store.extend('KeyGrants', fingerprint, expiresAt);
  }

  async forget(id: string): Promise<void> {
    this.opened.delete(id);
    await this.store.delete('PersonKey', id);
  }
}
