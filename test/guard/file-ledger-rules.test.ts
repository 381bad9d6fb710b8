/** The JSON file ledger's rules (Node 20's store): fits, settles, releases, reaps, stays bounded. */
import { describe, expect, it } from 'vitest';
import {
  applyHit,
  applyMarkSent,
  applyRelease,
  applyReserve,
  applySettle,
  emptyState,
  ledgerState,
  RESERVATION_TTL_MS,
  readFigures,
  reapReservations,
} from '../../src/guard/ledger.js';

const holder = (id: string, at = 0) => ({ id, pid: 1, owner: 'me', at });
const call = { account: 'a', window: 'day:2026-11-22', tool: 't' };

describe('ledger rules', () => {
  it('a reservation fits while spent + reserved + amount stays within the budget', () => {
    const state = emptyState();
    expect(applyReserve(state, { ...call, amount: 30, budget: 50 }, holder('r1'))).toEqual({
      ok: true,
      id: 'r1',
    });
    expect(applyReserve(state, { ...call, amount: 20, budget: 50 }, holder('r2'))).toEqual({
      ok: true,
      id: 'r2',
    });
    expect(applyReserve(state, { ...call, amount: 1, budget: 50 }, holder('r3'))).toEqual({
      ok: false,
      spent: 0,
      reserved: 50,
    });
    // Without a budget everything fits, and is still counted.
    expect(applyReserve(state, { ...call, amount: 99 }, holder('r4')).ok).toBe(true);
  });

  it('settling spends what the service charged; releasing costs nothing', () => {
    const state = emptyState();
    applyReserve(state, { ...call, amount: 5, budget: 10 }, holder('r1'));
    applyReserve(state, { ...call, amount: 5, budget: 10 }, holder('r2'));
    applySettle(state, 'r1', 3);
    applyRelease(state, 'r2');
    applySettle(state, 'unknown', 100);
    expect(readFigures(state, 'a', call.window)).toMatchObject({
      spent: 3,
      reserved: 0,
      by_tool: { t: { calls: 1, credits: 3, cache_hits: 0 } },
    });
  });

  it('reservations of ended processes, or older than any call, count as spent when sent, else are dropped', () => {
    const state = emptyState();
    applyReserve(state, { ...call, amount: 4 }, holder('old', 0));
    applyReserve(
      state,
      { ...call, amount: 2 },
      { id: 'dead', pid: 2, owner: 'other', at: RESERVATION_TTL_MS },
    );
    applyReserve(
      state,
      { ...call, amount: 8 },
      { id: 'dead-waiting', pid: 2, owner: 'other', at: RESERVATION_TTL_MS },
    );
    applyReserve(state, { ...call, amount: 1 }, holder('live', RESERVATION_TTL_MS));
    for (const id of ['old', 'dead', 'live']) applyMarkSent(state, id);
    const reaped = reapReservations(state, RESERVATION_TTL_MS + 1, (r) => r.owner === 'other');
    expect(reaped).toBe(3);
    expect(readFigures(state, 'a', call.window)).toMatchObject({ spent: 6, reserved: 1 });
    expect(readFigures(state, 'a', call.window).by_tool.t?.calls).toBe(2);
  });

  it('a reservation written before reservations recorded whether they were sent reads as sent', () => {
    const held = { account: 'a', window: call.window, tool: 't', amount: 3, pid: 2, owner: 'o', at: 0 };
    const state = ledgerState.parse({ accounts: {}, reservations: { r: held } });
    expect(state.reservations.r?.sent).toBe(true);
  });

  it('cache hits are counted with what they saved, by tool', () => {
    const state = emptyState();
    applyHit(state, 'a', call.window, 't', 2);
    applyHit(state, 'a', call.window, 't', 1);
    expect(readFigures(state, 'a', call.window)).toMatchObject({
      cache_hits: 2,
      credits_saved: 3,
      by_tool: { t: { calls: 0, credits: 0, cache_hits: 2 } },
    });
  });

  it('a free call counts for an account with figures in the window, and leaves nothing for another', () => {
    const state = emptyState();
    applyHit(state, 'made-up', call.window, 'query_data', 0, 0, 1);
    expect(state.accounts).toEqual({});
    applyHit(state, 'a', call.window, 't', 2);
    applyHit(state, 'a', call.window, 'query_data', 0, 0, 1);
    expect(readFigures(state, 'a', call.window).by_tool.query_data).toEqual({
      calls: 1,
      credits: 0,
      cache_hits: 0,
    });
  });

  it('keeps a bounded number of windows per account, never dropping total', () => {
    const state = emptyState();
    applyHit(state, 'a', 'total', 't', 0);
    for (let day = 1; day <= 30; day++)
      applyHit(state, 'a', `day:2026-11-${String(day).padStart(2, '0')}`, 't', 0);
    const ids = Object.keys(state.accounts.a ?? {});
    expect(ids.length).toBeLessThanOrEqual(7);
    expect(ids).toContain('total');
    expect(ids).toContain('day:2026-11-30');
  });
});
