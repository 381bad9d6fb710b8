/**
 * The global-metrics historical rules (spec, GET /v1/global-metrics/quotes/historical):
 *   1. one quote per interval period between time_start and time_end;
 *   2. without time_start, periods are counted backward from time_end;
 *   3. in each period, the quote closest in time to the requested time;
 *   4. a period with no available quote is skipped.
 * Calendar intervals (hourly … yearly) use UTC calendar periods, and the requested time of each is
 * the start of its calendar period. Quotes exist on the 5-minute grid, except in gap slots, from
 * six years before now up to now.
 */

import { checkDepth } from './accounts.js';
import { type CalendarUnit, calendarStart, calendarStep, isGapSlot, SLOT } from './market/time.js';
import type { Plan } from './service/plans.js';
import { CALENDAR_INTERVALS, intervalSeconds } from './service/time.js';

export interface Period {
  /** The time the quote should be closest to. */
  requested: number;
  /** Inclusive bounds in which the quote may be taken. */
  lo: number;
  hi: number;
}

const CALENDAR: ReadonlySet<string> = new Set(CALENDAR_INTERVALS);

/** A historical request's parameters, already checked against the endpoint's rules. */
export type HistoryQuery = {
  /** Unix seconds. */
  time_start?: number;
  time_end?: number;
  count: number;
  interval: string;
};

/** The request's time range in Unix seconds: `end` is `time_end` or now, never past now. */
export function historyRange(p: HistoryQuery, now: number): { start?: number; end: number } {
  return { start: p.time_start, end: Math.min(p.time_end ?? now, now) };
}

export interface PeriodRequest {
  start?: number;
  end: number;
  count: number;
  interval: string;
}

/**
 * The periods of a historical request (`time_start`, `time_end`, `count`, `interval`), refused
 * with the plan's message when the oldest of them is further back than the plan reaches.
 */
export function requestedPeriods(
  params: Record<string, unknown>,
  now: number,
  plan: Plan,
  what: string,
): Period[] {
  const p = params as HistoryQuery;
  const periods = periodsFor({ ...historyRange(p, now), count: p.count, interval: p.interval });
  if (periods.length > 0) {
    checkDepth(plan, now, earliestReach(periods), {
      what,
      advice: 'Use a later time_start or a smaller count',
    });
  }
  return periods;
}

/** The periods a request asks for, oldest first. */
export function periodsFor({ start, end, count, interval }: PeriodRequest): Period[] {
  const periods: Period[] = [];
  if (CALENDAR.has(interval)) {
    const unit = interval as CalendarUnit;
    if (start !== undefined) {
      for (
        let cs = calendarStart(start, unit);
        periods.length < count && cs <= end;
        cs = calendarStep(cs, unit, 1)
      ) {
        periods.push({
          requested: cs,
          lo: Math.max(cs, start),
          hi: Math.min(calendarStep(cs, unit, 1) - 1, end),
        });
      }
    } else {
      for (let cs = calendarStart(end, unit); periods.length < count; cs = calendarStep(cs, unit, -1)) {
        periods.push({ requested: cs, lo: cs, hi: Math.min(calendarStep(cs, unit, 1) - 1, end) });
      }
      periods.reverse();
    }
    return periods;
  }
  const step = intervalSeconds(interval);
  if (start !== undefined) {
    for (let p = start; periods.length < count && p <= end; p += step) {
      periods.push({ requested: p, lo: p, hi: Math.min(p + step - 1, end) });
    }
  } else {
    for (let k = 0; k < count; k++) {
      const requested = end - k * step;
      periods.push({ requested, lo: requested - step + 1, hi: requested });
    }
    periods.reverse();
  }
  return periods;
}

/** The earliest instant a request reaches back to, for the plan's history depth. */
function earliestReach(periods: readonly Period[]): number {
  let earliest = Number.POSITIVE_INFINITY;
  for (const p of periods) earliest = Math.min(earliest, Math.max(p.requested, p.lo));
  return earliest;
}

/**
 * The available quote slot in [lo, hi] closest to `requested` (earlier wins a tie), searching
 * outward slot by slot; undefined when the period holds none. `first`/`last` bound the data.
 */
export function closestQuote(period: Period, first: number, last: number): number | undefined {
  const lo = Math.max(period.lo, first);
  const hi = Math.min(period.hi, last);
  if (lo > hi) return undefined;
  const target = Math.min(Math.max(period.requested, lo), hi);
  let down = Math.floor(target / SLOT) * SLOT;
  let up = down + SLOT;
  if (down < lo) down = Number.NEGATIVE_INFINITY;
  while (down >= lo || up <= hi) {
    const downOk = down >= lo;
    const upOk = up <= hi;
    // The nearer candidate first; on a tie, the earlier one.
    if (downOk && (!upOk || target - down <= up - target)) {
      if (!isGapSlot(down)) return down;
      down -= SLOT;
    } else {
      if (!isGapSlot(up)) return up;
      up += SLOT;
    }
  }
  return undefined;
}
