/**
 * The names the ledger knows callers by: an API key's short hash (`key:…`), and with sign-in a
 * person's, from their token's subject (`person:…`); never the key or the subject itself.
 */
import { createHash } from 'node:crypto';

/** Hashes already computed: a process sees a handful of keys, each on every call. */
const accounts = new Map<string, string>();
const ACCOUNTS_KEPT = 1000;

/** An API key as the ledger knows it: a short hash, never the key. */
export function accountOf(apiKey: string): string {
  let account = accounts.get(apiKey);
  if (account === undefined) {
    account = `key:${createHash('sha256').update(apiKey).digest('hex').slice(0, 16)}`;
    if (accounts.size >= ACCOUNTS_KEPT) accounts.clear();
    accounts.set(apiKey, account);
  }
  return account;
}

const PERSON = 'person:';

/** A signed-in person as the ledger knows them: a short hash of the token's subject, never the subject. */
export function personOf(subject: string): string {
  return `${PERSON}${createHash('sha256').update(subject).digest('hex').slice(0, 16)}`;
}

/** Whether a ledger account is a signed-in person's. */
export function isPerson(account: string): boolean {
  return account.startsWith(PERSON);
}

/**
 * Whose kept results and tables are whose: the account, and with sign-in the person within it, so
 * that one person's kept tables are never another's even on one key.
 */
export function ownerOf(account: string, person?: string): string {
  return person === undefined ? account : `${account} ${person}`;
}
