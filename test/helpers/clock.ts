/**
 * The wall clock of this process moved ahead, for what ages with it (a cached answer's freshness,
 * a stale answer's bound, an answer's age): only `Date` is replaced, and it keeps running with real
 * time, so timers, timeouts and `performance.now()` are untouched. `restoreClock` puts it back.
 */
import { vi } from 'vitest';

export function moveClockAhead(ms: number): void {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + ms, shouldAdvanceTime: true });
}

export function restoreClock(): void {
  vi.useRealTimers();
}
