/** The ledger's rules, as the SQLite ledger applies them: fits, settles, releases, reaps, stays bounded. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RESERVATION_TTL_MS } from '../../src/guard/ledger.js';
import type { Sqlite } from '../../src/guard/sqlite.js';
import { SqliteLedger } from '../../src/guard/sqlite-ledger.js';
import { SQLITE } from '../helpers/sqlite.js';

// Without SQLite the ledger is the JSON file (file-ledger.ts), tested on its own.
const sqlite = SQLITE as Sqlite;
const root = mkdtempSync(join(tmpdir(), 'svc-ledger-rules-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
/** A ledger of its own, on a clock the test moves. */
function newLedger() {
  const clock = { now: 0 };
  const ledger = new SqliteLedger(join(root, String(dirs++)), sqlite, () => clock.now);
  return { ledger, clock };
}
const call = { account: 'a', window: 'day:2026-11-22', tool: 't' };

describe.runIf(sqlite !== undefined)('ledger rules', () => {
  it('a reservation fits while spent + reserved + amount stays within the budget', async () => {
    const { ledger } = newLedger();
    expect((await ledger.reserve({ ...call, amount: 30, budget: 50 })).ok).toBe(true);
    expect((await ledger.reserve({ ...call, amount: 20, budget: 50 })).ok).toBe(true);
    expect(await ledger.reserve({ ...call, amount: 1, budget: 50 })).toEqual({
      ok: false,
      spent: 0,
      reserved: 50,
    });
    // Without a budget everything fits, and is still counted.
    expect((await ledger.reserve({ ...call, amount: 99 })).ok).toBe(true);
    expect(await ledger.figures('a', call.window)).toMatchObject({ spent: 0, reserved: 149 });
    await ledger.close();
  });

  it('settling spends what the service charged; releasing costs nothing', async () => {
    const { ledger } = newLedger();
    const r1 = await ledger.reserve({ ...call, amount: 5, budget: 10 });
    const r2 = await ledger.reserve({ ...call, amount: 5, budget: 10 });
    if (!r1.ok || !r2.ok) throw new Error('both fit');
    await ledger.markSent(r1.id);
    await ledger.settle(r1.id, 3);
    await ledger.release(r2.id);
    await ledger.settle('unknown', 100);
    await ledger.settle(r1.id, 100); // settled once only
    expect(await ledger.figures('a', call.window)).toEqual({
      spent: 3,
      reserved: 0,
      by_tool: { t: { calls: 1, credits: 3, cache_hits: 0 } },
      cache_hits: 0,
      credits_saved: 0,
    });
    expect((await ledger.reserve({ ...call, amount: 7, budget: 10 })).ok).toBe(true);
    await ledger.close();
  });

  it('reservations older than any call count as spent at their amount if sent, and cost nothing if not', async () => {
    const { ledger, clock } = newLedger();
    const sent = await ledger.reserve({ ...call, amount: 4 });
    await ledger.reserve({ ...call, amount: 2 });
    // Sent, answered free, and waiting to try again: not sent.
    const retrying = await ledger.reserve({ ...call, amount: 8 });
    if (!sent.ok || !retrying.ok) throw new Error('fits');
    await ledger.markSent(sent.id);
    await ledger.markSent(retrying.id);
    await ledger.markUnsent(retrying.id);
    clock.now = RESERVATION_TTL_MS / 2;
    const live = await ledger.reserve({ ...call, amount: 1 });
    expect(await ledger.figures('a', call.window)).toMatchObject({ spent: 0, reserved: 15 });
    clock.now = RESERVATION_TTL_MS + 1;
    expect(await ledger.figures('a', call.window)).toMatchObject({
      spent: 4,
      reserved: 1,
      by_tool: { t: { calls: 1, credits: 4 } },
    });
    // The call settling late finds its reservation already counted.
    await ledger.settle(sent.ok ? sent.id : '', 4);
    if (live.ok) await ledger.settle(live.id, 1);
    expect(await ledger.figures('a', call.window)).toMatchObject({ spent: 5, reserved: 0 });
    await ledger.close();
  });

  it('cache hits are counted with what they saved, by tool', async () => {
    const { ledger } = newLedger();
    await ledger.recordHit('a', call.window, 't', 2);
    await ledger.recordHit('a', call.window, 't', 1);
    await ledger.recordHit('a', call.window, 'u', 1);
    expect(await ledger.figures('a', call.window)).toMatchObject({
      cache_hits: 3,
      credits_saved: 4,
      by_tool: { t: { calls: 0, credits: 0, cache_hits: 2 }, u: { calls: 0, credits: 0, cache_hits: 1 } },
    });
    await ledger.close();
  });

  it('keeps a bounded number of windows per account, never dropping total', async () => {
    const { ledger } = newLedger();
    await ledger.recordHit('a', 'total', 't', 0);
    await ledger.figures('a', 'total');
    for (let day = 1; day <= 30; day++) {
      const window = `day:2026-11-${String(day).padStart(2, '0')}`;
      await ledger.recordHit('a', window, 't', 0);
      await ledger.figures('a', window);
    }
    const kept = async (window: string) => (await ledger.figures('a', window)).cache_hits;
    expect(await kept('total')).toBe(1);
    expect(await kept('day:2026-11-30')).toBe(1);
    expect(await kept('day:2026-11-26')).toBe(1);
    expect(await kept('day:2026-11-25')).toBe(0);
    expect(await kept('day:2026-11-01')).toBe(0);
    await ledger.close();
  });
});
