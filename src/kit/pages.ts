/**
 * How a list or history is shown a page at a time. A call asks the service for everything its
 * arguments ask for, in one request paid once; the answer shows the first page, and the call path
 * keeps the whole in the result store, from which `next` serves the following pages free
 * (call/paging.ts). An endpoint whose data is a list of rows says here how to count and slice its
 * rows, and how to ask the service again for the rows from one of them on.
 */
import { z } from 'zod';
import { isoSeconds } from '../calendar.js';
import { currencyCount } from './credits.js';
import { MAX_SERIES_COUNT, rangePeriods, SERIES_COUNT, type SeriesRange, seriesCount } from './series.js';

/**
 * The most bytes one record (as the credit rule counts them) takes in the answer's JSON: a part of
 * its own and a part per currency asked for. Before a call, it tells how many pages its answer
 * makes.
 */
export interface RecordBytes {
  fixed: number;
  perCurrency: number;
}

/** A page of a kept result, as `next` names it: `<result id>.<first row>`. */
export const CURSOR = /^([A-Za-z0-9_-]{16})\.(\d{1,7})$/;

/** The `cursor` every paged tool takes: from a previous answer's `next`. */
export const cursorParam = z
  .string()
  .refine((value) => CURSOR.test(value), {
    message: 'must be the cursor a previous answer\'s next gave, e.g. "Xk2p9aQ0ZfLr7bTw.20"',
  })
  .optional()
  .describe('From next.');

type Data = Record<string, unknown>;
type Params = Record<string, unknown>;

/**
 * Where a kept table's rows are in the data: one list, or under each asset of `items`, its list of
 * `points` (each row then carries its asset's fields beside the point's).
 */
export type RowsShape = { list: string } | { points: string };

export interface Pages<P = Params, D = Data> {
  /** Where the rows are, for the kept table. */
  rows: RowsShape;
  /** The most bytes one record takes with these parameters. */
  recordBytes(params: P): number;
  /**
   * The parameters with what the tool fills in itself (a series' count, from its time range), as
   * they are estimated, cached and sent.
   */
  complete?(params: P, now: number): Params;
  /** The rows the data holds. */
  count(data: D): number;
  /** The data holding only the rows from `from` up to `to` (exclusive). */
  slice(data: D, from: number, to: number): Data;
  /**
   * The tool's arguments that ask the service for the rows from `from` (at least 1) on: what a page
   * asked for after its stored result is gone sends.
   */
  restFrom(params: P, data: D, from: number): Params;
  /**
   * The arguments of the rows after the data's last, when the service may have more than it
   * answered (an offset page as full as its limit, a range longer than one request's count);
   * undefined when the data is the whole. `now` is Unix seconds.
   */
  beyond?(params: P, data: D, now: number): Params | undefined;
}

export function bytesWith(size: RecordBytes) {
  return (params: object) => size.fixed + size.perCurrency * currencyCount(params);
}

/**
 * `start` and `limit` pages of the records under `list`: the rest starts where a page ends, and
 * a page as full as its limit may have more after it (or as many as `total` says).
 */
export function offsetPages(
  size: RecordBytes,
  options: { list?: string; total?: (data: Data) => number | undefined } = {},
): Pages<{ start: number; limit?: number }> {
  const list = options.list ?? 'items';
  const rows = (data: Data) => data[list] as unknown[];
  return {
    rows: { list },
    recordBytes: bytesWith(size),
    count: (data) => rows(data).length,
    slice: (data, from, to) => ({
      ...data,
      ...(typeof data.start === 'number' ? { start: data.start + from } : {}),
      [list]: rows(data).slice(from, to),
    }),
    restFrom: (params, _data, from) => ({
      ...params,
      start: params.start + from,
      ...(params.limit === undefined ? {} : { limit: params.limit - from }),
    }),
    beyond(params, data) {
      const count = rows(data).length;
      const end = params.start + count;
      const total = options.total?.(data);
      const more = total !== undefined ? end <= total : params.limit !== undefined && count >= params.limit;
      return more ? { ...params, start: end } : undefined;
    },
  };
}

/**
 * The records of assets named by id, slug or symbol (quotes, info): the service has no page of its
 * own, so the rest is asked for by the ids of the assets not yet shown.
 */
export function namedPages(
  size: RecordBytes,
): Pages<{ id?: string; slug?: string; symbol?: string }, { items: { id: number }[] }> {
  return {
    rows: { list: 'items' },
    recordBytes: bytesWith(size),
    count: (data) => data.items.length,
    slice: (data, from, to) => ({ ...data, items: data.items.slice(from, to) }),
    restFrom(params, data, from) {
      const { id: _, slug: __, symbol: ___, ...rest } = params;
      return { ...rest, id: [...new Set(data.items.slice(from).map((a) => a.id))].join(',') };
    },
  };
}

/** Where a series keeps its points: one list, or a list per asset (`items[].quotes`). */
export type SeriesShape = { list: string } | 'per asset';

export interface SeriesOptions {
  /** Where the points are. */
  shape: SeriesShape;
  /** The point's time field (its period's start). */
  time: string;
  /** The service's time_start is exclusive (OHLCV): the rest starts after the last row shown. */
  startExclusive?: boolean;
  /** The count without one given or a range (the service's default); 10 unless set. */
  defaultCount?: number;
  /** The most periods a count filled in from a range asks for (the count parameter's bound). */
  maxCount?: number;
  /** The spacing when none is asked for and it depends on other parameters (OHLCV: the candle's length). */
  interval?(params: Params): string;
  /** What the tool fills in beyond the count (the indices' one request for a long range). */
  complete?(counted: Params, asked: Params): Params;
}

/** A series' points' times, list by list, and its periods: the distinct times, oldest first. */
interface Timed {
  lists: Data[][];
  points: Float64Array[];
  periods: readonly number[];
}

function listsOf(data: Data, shape: SeriesShape): Data[][] {
  if (shape === 'per asset') return (data.items as { quotes: Data[] }[]).map((a) => a.quotes);
  return [data[shape.list] as Data[]];
}

function withLists(data: Data, shape: SeriesShape, lists: Data[][]): Data {
  if (shape !== 'per asset') return { ...data, [shape.list]: lists[0] };
  return { ...data, items: (data.items as Data[]).map((a, i) => ({ ...a, quotes: lists[i] })) };
}

/**
 * A series' rows are its periods, oldest first, across every asset it holds: a page holds every
 * asset's points of its periods, and the rest is asked for from the first period not shown.
 */
export function seriesPages(
  size: RecordBytes,
  options: SeriesOptions,
): Pages<{ time_start?: string | number; time_end?: string | number; count?: number; interval?: string }> {
  const byDefault = options.defaultCount ?? SERIES_COUNT;
  const most = options.maxCount ?? MAX_SERIES_COUNT;
  // A page is cut from the same whole several times over (a kept result for each of its pages):
  // each point's time is read once, and each whole's periods sorted once.
  const timesOf = new WeakMap<Data, Timed>();
  const timed = (data: Data): Timed => {
    let found = timesOf.get(data);
    if (found === undefined) {
      const lists = listsOf(data, options.shape);
      const points = lists.map((list) => Float64Array.from(list, (p) => Date.parse(String(p[options.time]))));
      const periods = [...new Set(points.flatMap((times) => [...times]))].sort((a, b) => a - b);
      found = { lists, points, periods };
      timesOf.set(data, found);
    }
    return found;
  };
  /** The periods' start times, oldest first. */
  const times = (data: Data) => timed(data).periods;
  return {
    rows: options.shape === 'per asset' ? { points: 'quotes' } : { list: options.shape.list },
    recordBytes: bytesWith(size),
    complete(asked, now) {
      // Every series has its spacing by now: a default of its input, or filled in here.
      const params = { ...asked, interval: options.interval?.(asked) ?? asked.interval } as SeriesRange;
      const { startExclusive } = options;
      const counted = { ...params, count: seriesCount(params, now, { byDefault, most, startExclusive }) };
      return options.complete ? options.complete(counted, asked) : counted;
    },
    count: (data) => times(data).length,
    slice(data, from, to) {
      const { lists, points, periods } = timed(data);
      const first = periods[from] ?? Number.POSITIVE_INFINITY;
      const after = periods[to] ?? Number.POSITIVE_INFINITY;
      const sliced = lists.map((list, i) => {
        const at = points[i] as Float64Array;
        return list.filter((_, j) => (at[j] as number) >= first && (at[j] as number) < after);
      });
      return withLists(data, options.shape, sliced);
    },
    restFrom(params, data, from) {
      const periods = times(data);
      const { time_end: _, ...rest } = params;
      // `from` is within the answer's periods: the pager asks for the rest only when some are left.
      const start = (options.startExclusive ? periods[from - 1] : periods[from]) as number;
      return { ...rest, time_start: isoSeconds(Math.floor(start / 1000)), count: periods.length - from };
    },
    // A range from time_start longer than one request's count: the rest of it, after the last period.
    beyond(params, data, now) {
      const last = times(data).at(-1);
      if (params.count !== undefined || params.time_start === undefined || last === undefined)
        return undefined;
      const range = { ...params, interval: options.interval?.(params) ?? params.interval } as SeriesRange;
      if ((rangePeriods(range, now, options.startExclusive) ?? 0) <= most) return undefined;
      const after = Math.floor(last / 1000) + (options.startExclusive ? 0 : 1);
      return { ...params, time_start: isoSeconds(after) };
    },
  };
}

/** Chart points (the DEX k-lines) under `list`, oldest first: the rest is asked for from a time on. */
export function chartPages(
  size: RecordBytes,
  list: string,
): Pages<{ from?: number; to?: number; limit: number }> {
  const rows = (data: Data) => data[list] as { time: string }[];
  const seconds = (point: { time: string }) => Math.floor(Date.parse(point.time) / 1000);
  return {
    rows: { list },
    recordBytes: bytesWith(size),
    count: (data) => rows(data).length,
    slice: (data, from, to) => ({ ...data, [list]: rows(data).slice(from, to) }),
    restFrom(params, data, from) {
      const points = rows(data);
      const last = points.at(-1);
      return {
        ...params,
        from: seconds(points[from] as (typeof points)[number]),
        ...(last === undefined ? {} : { to: seconds(last) }),
        limit: points.length - from,
      };
    },
  };
}

/**
 * Rows the server computed itself (a query's) under `list`: paged from the kept result; the rest
 * is asked for by the same arguments again, which are free.
 */
export function computedPages(list: string): Pages {
  const rows = (data: Data) => data[list] as unknown[];
  return {
    rows: { list },
    recordBytes: () => 0,
    count: (data) => rows(data).length,
    slice: (data, from, to) => ({ ...data, [list]: rows(data).slice(from, to) }),
    restFrom: (params) => params,
  };
}
