/**
 * The arithmetic of a series (global metrics, quotes, candles, index values): how long its
 * intervals are, how many periods a time range holds, and how many points a call asks for. The
 * estimate, the pages and the tools share it, so that what is priced is what is sent.
 */
import { type CalendarUnit, calendarPeriods } from '../calendar.js';
import { intParam, parseTime } from './params.js';
import type { Reach } from './plans.js';

export const CALENDAR_INTERVALS = ['hourly', 'daily', 'weekly', 'monthly', 'yearly'] as const;
const CALENDAR_SECONDS: Record<string, number> = {
  hourly: 3_600,
  daily: 86_400,
  weekly: 604_800,
  monthly: 2_629_800,
  yearly: 31_557_600,
};
const UNIT_SECONDS: Record<string, number> = { m: 60, h: 3_600, d: 86_400 };

/** Length of an interval in seconds (calendar months and years by their mean length). */
export function intervalSeconds(interval: string): number {
  const calendar = CALENDAR_SECONDS[interval];
  if (calendar !== undefined) return calendar;
  return Number(interval.slice(0, -1)) * (UNIT_SECONDS[interval.slice(-1)] ?? Number.NaN);
}

/** What a series call asks for: a time range, a count of periods and their spacing. */
export interface SeriesRange {
  time_start?: string | number;
  time_end?: string | number;
  count?: number;
  interval: string;
}

/** Points a series asks for when neither `count` nor a whole range says how many: the service's default. */
export const SERIES_COUNT = 10;
/** The most points one series call asks for (the count parameter's bound). */
export const MAX_SERIES_COUNT = 10_000;

/** A series' count described: what it takes when not given. */
export const SERIES_COUNT_TEXT = `Default ${SERIES_COUNT}, or all in the range.`;

/** The service's own count: the series tools fill theirs in (seriesPages.complete), the service defaults to 10. */
export const seriesServiceParams = {
  count: intParam(1, MAX_SERIES_COUNT, 'Points.').default(SERIES_COUNT),
};

/**
 * Periods from the one holding time_start to time_end (now when not given), or undefined without
 * time_start. Calendar periods start at the one holding time_start (a daily series from 23:00 has
 * that day's point), and months and years are counted on the calendar, not by their mean length.
 * Where time_start is exclusive (OHLCV: the candles after it), the period holding it is not counted,
 * as the service does not answer it.
 */
export function rangePeriods(p: SeriesRange, now: number, startExclusive = false): number | undefined {
  if (p.time_start === undefined) return undefined;
  const start = parseTime(p.time_start) ?? 0;
  const end = p.time_end === undefined ? now : (parseTime(p.time_end) ?? start);
  const periods = (CALENDAR_INTERVALS as readonly string[]).includes(p.interval)
    ? calendarPeriods(start, end, p.interval as CalendarUnit)
    : Math.floor((end - start) / intervalSeconds(p.interval)) + 1;
  return startExclusive ? Math.max(0, periods - 1) : periods;
}

/**
 * The count a series call asks for: the one given; else, from time_start to time_end (or now),
 * every period of the range (up to `most`); else `byDefault`.
 */
export function seriesCount(
  p: SeriesRange,
  now: number,
  { byDefault = SERIES_COUNT, most = MAX_SERIES_COUNT, startExclusive = false } = {},
) {
  if (p.count !== undefined) return p.count;
  const periods = rangePeriods(p, now, startExclusive);
  return periods === undefined ? byDefault : Math.max(1, Math.min(periods, most));
}

/**
 * Periods a call returns at most: its count, fewer when its time range holds fewer periods. An
 * estimate below what comes back would let a call pass the budget.
 */
export function expectedPoints(p: SeriesRange, now: number, startExclusive = false): number {
  const count = seriesCount(p, now, { startExclusive });
  return Math.max(1, Math.min(count, rangePeriods(p, now, startExclusive) ?? count));
}

/**
 * How far back a series call (its parameters completed, count and interval set) reaches: its
 * time_start, else `count` periods back from time_end or now.
 */
export function seriesReach(p: SeriesRange, now: number): Reach {
  const step = intervalSeconds(p.interval);
  const later = 'a later time_start or a smaller count';
  if (p.time_start !== undefined) return { at: parseTime(p.time_start) ?? now, step, later };
  const end = p.time_end === undefined ? now : (parseTime(p.time_end) ?? now);
  return { at: end - ((p.count ?? SERIES_COUNT) - 1) * step, step, later };
}
