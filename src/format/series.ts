/** A time series as text: first, last, min, max and change, then every point. */
import { formatPercent } from './numbers.js';
import { formatTime, lines, table } from './text.js';

export interface SeriesPoint {
  time: string | number;
  value: number;
  /** What the point is said to be of, in place of its time (a candle's span). */
  label?: string;
}

const DAY_MS = 86_400_000;

/**
 * The candle a close is of, as a series' headline dates it: a day's by its date, a longer one's by
 * its first and last dates, a shorter one's by its span ("2026-11-25 10:00–11:00 UTC"); one not
 * closed yet, so far. Not the time it opened alone, which reads as the price then: the open's.
 */
export function candleSpan(opened: string, lengthMs: number, complete: boolean): string {
  const days = lengthMs >= DAY_MS;
  const from = formatTime(opened, days);
  if (!complete) return `${from}, so far`;
  const end = Date.parse(opened) + lengthMs - (days ? DAY_MS : 0);
  // A time that is none (the service's text as it came) is said as it came.
  if (!Number.isFinite(end)) return from;
  const to = formatTime(new Date(end).toISOString(), days);
  if (days) return lengthMs === DAY_MS ? from : `${from} to ${to}`;
  return `${from.slice(0, -4)}–${to.slice(11)}`;
}

/**
 * "first $1.2T (2026-11-13), last $1.3T (2026-11-22), min …, max …, change +8.3%". Indices on a
 * 0–100 scale read better as a change in points: pass `changeIn: 'points'`.
 */
export function describeSeries(
  points: readonly SeriesPoint[],
  show: (v: number) => string,
  { dateOnly = false, changeIn = 'percent' }: { dateOnly?: boolean; changeIn?: 'percent' | 'points' } = {},
): string {
  const first = points[0];
  const last = points.at(-1);
  if (first === undefined || last === undefined) return 'no data points in the range asked';
  let min = first;
  let max = first;
  for (const p of points) {
    if (p.value < min.value) min = p;
    if (p.value > max.value) max = p;
  }
  const at = (p: SeriesPoint) => p.label ?? formatTime(p.time, dateOnly);
  const difference = last.value - first.value;
  const moved = Math.round(difference);
  const change =
    changeIn === 'points'
      ? `${moved > 0 ? '+' : ''}${moved} point${Math.abs(moved) === 1 ? '' : 's'}`
      : first.value !== 0
        ? formatPercent((difference / Math.abs(first.value)) * 100)
        : undefined;
  return [
    `first ${show(first.value)} (${at(first)})`,
    `last ${show(last.value)} (${at(last)})`,
    `min ${show(min.value)} (${at(min)})`,
    `max ${show(max.value)} (${at(max)})`,
    change === undefined ? undefined : `change ${change}`,
  ]
    .filter(Boolean)
    .join(', ');
}

/** How a series reads as text: its headline, each point as a row, and one point as a sentence. */
export interface SeriesView<T> {
  headline(): string;
  /** Points in the whole series a page is of: a page of one point of several has the headline too. */
  total?: number;
  header: string[];
  row(point: T): string[];
  one(point: T): string;
}

/**
 * A series as text: the headline, then every point, one row each; a series of one point, one
 * sentence. Never a sample: a text page holds as many points as its text shows (call/paging.ts).
 */
export function seriesText<T>(points: readonly T[], view: SeriesView<T>): string {
  const [only] = points;
  if ((view.total ?? points.length) === 1 && only !== undefined) return view.one(only);
  return lines(
    view.headline(),
    table(
      view.header,
      points.map((p) => view.row(p)),
    ),
  );
}
