/**
 * The guard's mark before a request is sent, on the real stores in a temporary directory (SQLite
 * as this Node loads it, and the JSON file): a store says whether a reservation was still held
 * when marked; a budgeted call whose reservation was dropped while it waited for its turn is
 * reserved again within the budget (the person's too) or refused; a call the server ended while
 * it waited is refused at its turn; and a server stopping while a mark is being written ends the
 * call as the mark decides, never charging a call that was refused.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { endpointsByName } from '../../src/endpoints/index.js';
import { personOf } from '../../src/guard/accounts.js';
import { FileLedger } from '../../src/guard/file-ledger.js';
import { CreditGuard, type GuardedCall } from '../../src/guard/guard.js';
import type { LedgerStore } from '../../src/guard/ledger.js';
import { SqliteLedger } from '../../src/guard/sqlite-ledger.js';
import type { Endpoint } from '../../src/kit/define.js';
import { NOW_MS } from '../helpers/now.js';
import { SQLITE } from '../helpers/sqlite.js';

const sqlite = SQLITE;
const root = mkdtempSync(join(tmpdir(), 'svc-marking-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const newDir = () => join(root, String(dirs++));

/** 2026-11-22 10:00 UTC: the day window is day:2026-11-22 throughout. */
const WINDOW = 'day:2026-11-22';
const FNG = endpointsByName.get('get_fear_and_greed_latest') as Endpoint;
const ACCOUNT = 'key:0123456789abcdef';
const PERSON = personOf('someone');
const call = (person?: string): GuardedCall => ({
  account: ACCOUNT,
  person,
  tool: FNG.name,
  estimate: 1,
  rule: FNG.credits,
  params: {},
});

function guardOn(store: LedgerStore, budgets: { budget?: number; personBudget?: number }): CreditGuard {
  return new CreditGuard({ store, ...budgets, window: 'day', maxPerCall: 1000, now: () => NOW_MS });
}

/** Credits spent in the window, as a new store on the same directory reads them. */
async function spentIn(
  open: () => LedgerStore,
  account = ACCOUNT,
): Promise<{ spent: number; reserved: number }> {
  const store = open();
  try {
    const { spent, reserved } = await store.figures(account, WINDOW);
    return { spent, reserved };
  } finally {
    await store.close();
  }
}

/** Another call's credit, spent straight on the store. */
async function spendOne(store: LedgerStore, account = ACCOUNT): Promise<void> {
  const other = await store.reserve({ account, window: WINDOW, tool: FNG.name, amount: 1 });
  if (!other.ok) throw new Error('the other call did not fit');
  await store.settle(other.id, 1);
}

const STORES = [
  ...(sqlite ? [{ kind: 'SQLite', open: (dir: string) => new SqliteLedger(dir, sqlite, () => NOW_MS) }] : []),
  { kind: 'JSON file', open: (dir: string) => new FileLedger(dir, () => NOW_MS) },
];

describe.each(STORES)('the $kind ledger', ({ open }) => {
  it('says whether a reservation was still held when it is marked sent', async () => {
    const store = open(newDir());
    try {
      const held = await store.reserve({ account: ACCOUNT, window: WINDOW, tool: FNG.name, amount: 1 });
      if (!held.ok) throw new Error('not reserved');
      expect(await store.markSent(held.id)).toBe(true);
      expect(await store.markSent(held.id)).toBe(true);
      await store.release(held.id);
      expect(await store.markSent(held.id)).toBe(false);
      expect(await store.markSent('never-reserved')).toBe(false);
    } finally {
      await store.close();
    }
  });

  it('a reservation dropped while the call waited is reserved again within the budget, or the call is refused', async () => {
    const dir = newDir();
    const store = open(dir);
    const guard = guardOn(store, { budget: 2 });
    const fits = await guard.admit(call());
    const refused = await guard.admit(call());
    if (!fits.ok || !refused.ok) throw new Error('not admitted');
    // Both reservations are dropped as never sent (as a reaper does), and another call spends 1.
    await store.release(fits.reservation.id);
    await store.release(refused.reservation.id);
    await spendOne(store);
    expect(await guard.markSent(fits.reservation)).toBeUndefined();
    const refusal = await guard.markSent(refused.reservation);
    expect(refusal).toMatchObject({ ok: false, reason: 'budget' });
    expect(refusal?.message).toMatch(
      /^Refused before sending: this call's reservation was dropped while it waited for its turn .* 0 credits of the budget of 2 are left/,
    );
    await guard.release(refused.reservation);
    await guard.settle(fits.reservation, 1);
    await guard.close();
    expect(await spentIn(() => open(dir))).toEqual({ spent: 2, reserved: 0 });
  });

  it('a call the server ended while it waited for its turn is refused at its turn, never sent', async () => {
    const dir = newDir();
    const guard = guardOn(open(dir), { budget: 5 });
    const waiting = await guard.admit(call());
    if (!waiting.ok) throw new Error('not admitted');
    await guard.close();
    expect(await guard.markSent(waiting.reservation)).toMatchObject({ ok: false, reason: 'stopping' });
    expect(await spentIn(() => open(dir))).toEqual({ spent: 0, reserved: 0 });
  });
});

describe.skipIf(!sqlite)('a signed-in person on the SQLite ledger', () => {
  const openIn = (dir: string) => new SqliteLedger(dir, sqlite as NonNullable<typeof sqlite>, () => NOW_MS);
  /** Drops the person's reservations, as a reaper does with ones it counts as never sent. */
  function dropPersonReservations(dir: string): void {
    const db = (sqlite as NonNullable<typeof sqlite>).open(join(dir, 'ledger.sqlite'));
    try {
      db.prepare('DELETE FROM reservations WHERE account = ?').run(PERSON);
    } finally {
      db.close();
    }
  }

  it("a person's reservation dropped while the call waited is reserved again within their own budget", async () => {
    const dir = newDir();
    const guard = guardOn(openIn(dir), { budget: 10, personBudget: 3 });
    const admitted = await guard.admit(call(PERSON));
    if (!admitted.ok) throw new Error('not admitted');
    dropPersonReservations(dir);
    expect(await guard.markSent(admitted.reservation)).toBeUndefined();
    await guard.settle(admitted.reservation, 1);
    await guard.close();
    expect(await spentIn(() => openIn(dir), PERSON)).toEqual({ spent: 1, reserved: 0 });
    expect(await spentIn(() => openIn(dir))).toEqual({ spent: 1, reserved: 0 });
  });

  it('stopping while the mark refuses the call ends it unsent: the account is not charged', async () => {
    const dir = newDir();
    const store = openIn(dir);
    const guard = guardOn(store, { budget: 10, personBudget: 1 });
    const admitted = await guard.admit(call(PERSON));
    if (!admitted.ok) throw new Error('not admitted');
    // The person's reservation is dropped and their one credit spent meanwhile: the mark refuses.
    dropPersonReservations(dir);
    await spendOne(store, PERSON);
    const marking = guard.markSent(admitted.reservation);
    // The server stops while that mark is being written.
    await guard.close();
    expect(await marking).toMatchObject({ ok: false, reason: 'budget' });
    expect(await spentIn(() => openIn(dir))).toEqual({ spent: 0, reserved: 0 });
    expect(await spentIn(() => openIn(dir), PERSON)).toEqual({ spent: 1, reserved: 0 });
  });
});
