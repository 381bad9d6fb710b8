/**
 * The sandbox's clock: real time by default, or frozen at one instant so that every body (status
 * timestamps and `elapsed` included) is the same byte for byte on every run.
 */
export interface Clock {
  readonly frozen: boolean;
  /** Milliseconds since the epoch. */
  nowMs(): number;
}

export function createClock(now?: string | Date): Clock {
  if (now === undefined) return { frozen: false, nowMs: () => Date.now() };
  const ms = now instanceof Date ? now.getTime() : Date.parse(now);
  if (Number.isNaN(ms))
    throw new Error(`Invalid sandbox time "${String(now)}": use ISO 8601, e.g. 2026-11-22T12:00:00Z`);
  return { frozen: true, nowMs: () => ms };
}
