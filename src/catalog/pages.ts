/**
 * How a list or history tool asks the service for no more records than one answer carries
 * (SVC_MAX_ANSWER_CHARS): each declares the most bytes one of its records takes, and how its
 * parameters are lowered to a number of records and continued on the next page. The pipeline (call/pages.ts) lowers them before the
 * estimate, so the estimate, the reservation, the request and the charge all cover what is returned.
 */
import { type CalendarUnit, calendarStart, calendarStep, DAY, floorTo, isoSeconds } from '../calendar.js';
import { namedCount } from './asset-params.js';
import { currencyCount } from './credits.js';
import { parseTime } from './params.js';
import {
  CALENDAR_INTERVALS,
  expectedPoints,
  intervalSeconds,
  MAX_SERIES_COUNT,
  rangePeriods,
  SERIES_COUNT,
  type SeriesRange,
  seriesCount,
} from './series.js';

/**
 * The most bytes one record takes in the answer's JSON: a part of its own and a part per currency
 * asked for. Measured on the sandbox's largest records (test/mcp/paging.test.ts checks that its
 * capped answers are never cut), with room for the service's longer names; a record larger still
 * is cut after the fact (call/cut.ts).
 */
export interface RecordBytes {
  fixed: number;
  perCurrency: number;
}

/**
 * Said by the tools that name their records (ids, slugs, symbols) and offer no count, limit or
 * range: the service has no way to be asked for less, so a large answer is cut after the fact.
 */
export const UNPAGED = 'No count or limit: a long answer is cut.';

/** What one page asks for, and the arguments of the next page when there is one. */
export interface Lowered {
  params: Record<string, unknown>;
  /** The tool's arguments for the rest, as they are to be sent back; absent when this page is the last. */
  next?: Record<string, unknown>;
}

export interface Pages<P = Record<string, unknown>> {
  /** The parameter that is lowered: `limit` or `count`. */
  param: 'limit' | 'count';
  /** The most bytes one record of the answer takes with these parameters. */
  recordBytes(params: P): number;
  /** The parameters lowered to at most `records` records, or undefined when they ask for no more. */
  lower(params: P, records: number, now: number): Lowered | undefined;
  /**
   * The parameters with what the tool fills in itself (a series' count, from its time range when
   * not given), as they are estimated, cached and sent.
   */
  complete?(params: P, now: number): Record<string, unknown>;
  /**
   * The most records the service itself returns for these parameters, where it has such a limit
   * (the indices' 10 values with both time bounds), and how to say so.
   */
  serviceMost?(params: P): { records: number; why: string } | undefined;
  /**
   * How many records an answer holds, where the service says it has no more by answering fewer
   * than were asked for (offset pages): such an answer was not capped, and has no next page.
   */
  returned?(data: Record<string, unknown>): number | undefined;
}

function bytesWith(size: RecordBytes) {
  return (params: object) => size.fixed + size.perCurrency * currencyCount(params);
}

/**
 * What a listing's text says of the rows it leaves out: format=json has the whole page, and the
 * next page starts after its `count` rows only when there can be one: the page was capped to one
 * answer (`next` in its data), holds as many rows as asked for, or the service's `total` says so.
 * A shorter page is the service's last; following it would buy an empty page.
 */
export function pageAdvice(
  data: { start: number },
  count: number,
  asked: { limit: number },
  total?: number,
): string {
  const end = data.start + count;
  const capped = (data as { next?: unknown }).next !== undefined;
  const more = total !== undefined ? end <= total : capped || count >= asked.limit;
  return more ? `format=json has this page; next page: start=${end}` : 'format=json has this page, the last';
}

/** `start` and `limit` pages, the records under `list`: the rest starts where this page ends. */
export function offsetPages(size: RecordBytes, list = 'items'): Pages<{ start: number; limit: number }> {
  return {
    param: 'limit',
    recordBytes: bytesWith(size),
    returned: (data) => (Array.isArray(data[list]) ? (data[list] as unknown[]).length : undefined),
    lower(params, records) {
      if (params.limit <= records) return undefined;
      return {
        params: { ...params, limit: records },
        next: { ...params, start: params.start + records, limit: params.limit - records },
      };
    },
  };
}

/** Parameters of a series: a time range, a count of periods and their spacing. */
export interface SeriesParams extends SeriesRange {
  time_period?: string;
  id?: string;
  slug?: string;
  symbol?: string;
}

const isCalendar = (interval: string) => (CALENDAR_INTERVALS as readonly string[]).includes(interval);

/** The start of the period `k` steps from the one starting at `start` (k may be negative). */
function stepped(start: number, interval: string, k: number): number {
  if (!isCalendar(interval)) return start + k * intervalSeconds(interval);
  let at = start;
  for (let i = 0; i < Math.abs(k); i++) at = calendarStep(at, interval as CalendarUnit, k < 0 ? -1 : 1);
  return at;
}

/** The start of the period containing t: a calendar period, or a fixed step from the Unix epoch. */
function periodStart(t: number, interval: string): number {
  return isCalendar(interval)
    ? calendarStart(t, interval as CalendarUnit)
    : floorTo(t, intervalSeconds(interval));
}

export interface SeriesOptions {
  /**
   * Where periods start. `quotes` (the default): at time_start itself, or counted back from
   * time_end by whole steps. `candles` (OHLCV): on a grid (calendar periods, or steps from the
   * Unix epoch), after time_start (exclusive). `grid` (the indices): on steps from the Unix epoch,
   * from the first at or after time_start, or back from the last at or before time_end.
   */
  periods?: 'quotes' | 'candles' | 'grid';
  /** The count without one given or a whole range (the service's default); 10 unless set. */
  defaultCount?: number;
  /** The most periods a count filled in from a range asks for (the count parameter's bound). */
  maxCount?: number;
  /** The service's own limit on the values one call returns (SeriesPages.serviceMost). */
  serviceMost?: Pages<SeriesParams>['serviceMost'];
}

/**
 * Series pages. With time_start, periods run forward and the next page starts where this one
 * ends; without it, they are counted back from time_end (now when not given, then fixed for every
 * page), and the next page ends where this one starts: pages go back in time, each oldest first.
 * Several assets share each period, so a page holds as many periods as its records allow. With
 * both bounds and no count, a call asks for every period between them; so does a next page whose
 * count would be every period left (it is left out, which also keeps the indices' rule that a
 * count with both bounds is at most 10).
 */
export function seriesPages(size: RecordBytes, options: SeriesOptions = {}): Pages<SeriesParams> {
  const byDefault = options.defaultCount ?? SERIES_COUNT;
  const most = options.maxCount ?? MAX_SERIES_COUNT;
  return {
    param: 'count',
    recordBytes: bytesWith(size),
    complete: (params, now) => ({ ...params, count: seriesCount(params, now, byDefault, most) }),
    serviceMost: options.serviceMost,
    lower(params, records, now) {
      const periods = Math.max(1, Math.floor(records / namedCount(params)));
      // Periods past now hold nothing: a range ending later must not ask for an empty last page.
      const end = params.time_end === undefined ? now : Math.min(parseTime(params.time_end) as number, now);
      if (expectedPoints({ ...params, time_end: end }, now) <= periods) return undefined;
      const count = seriesCount(params, now, byDefault, most);
      const rest = count - periods;
      const page = { ...params, count: periods };
      if (params.time_start !== undefined) {
        const start = parseTime(params.time_start) as number;
        const next = { ...params, time_start: forwardFrom(start, params, periods), count: rest };
        const left = next.time_end === undefined ? undefined : rangePeriods(next, now);
        if (left !== undefined && rest >= left) delete (next as SeriesParams).count;
        return { params: page, next };
      }
      // Pinned, so that every page counts back from the same instant whatever the clocks say.
      const time_end = backwardFrom(end, params, periods, options);
      return {
        params: { ...page, time_end: isoSeconds(end) },
        next: { ...params, time_end, count: rest },
      };
    },
  };

  /** The next page's time_start, after `periods` periods from `start`. */
  function forwardFrom(start: number, p: SeriesParams, periods: number): string {
    if (options.periods === 'grid') {
      const step = intervalSeconds(p.interval);
      return isoSeconds(Math.ceil(start / step) * step + periods * step);
    }
    if (options.periods !== 'candles') {
      // The quotes histories: periods start at time_start; calendar ones at its period's start.
      const first = isCalendar(p.interval) ? periodStart(start, p.interval) : start;
      return isoSeconds(stepped(first, p.interval, periods));
    }
    // Candles start after time_start (exclusive; daily candles after its date): the next page
    // starts after this page's last candle.
    const from = p.time_period === 'hourly' ? start : floorTo(start, DAY);
    let first = periodStart(from, p.interval);
    if (first <= from) first = stepped(first, p.interval, 1);
    return isoSeconds(stepped(first, p.interval, periods - 1));
  }
}

/** The next page's time_end: just before this page's oldest period, counted back from `end`. */
function backwardFrom(end: number, p: SeriesParams, periods: number, options: SeriesOptions): string {
  if (options.periods === 'grid')
    return isoSeconds(floorTo(end, intervalSeconds(p.interval)) - periods * intervalSeconds(p.interval));
  if (options.periods !== 'candles' && !isCalendar(p.interval))
    return isoSeconds(stepped(end, p.interval, -periods));
  const oldest = stepped(periodStart(end, p.interval), p.interval, -(periods - 1));
  return isoSeconds(oldest - 1);
}
