/** Summaries of a time series: first, last, min, max and change, and a few sample rows. */
import { formatPercent } from './numbers.js';
import { formatTime } from './text.js';

export interface SeriesPoint {
  time: string | number;
  value: number;
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
  const at = (p: SeriesPoint) => formatTime(p.time, dateOnly);
  const difference = last.value - first.value;
  const change =
    changeIn === 'points'
      ? `${difference > 0 ? '+' : ''}${Math.round(difference)} points`
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

/** At most `max` points spread evenly over the series, always keeping the first and the last. */
export function samplePoints<T>(points: readonly T[], max: number): T[] {
  if (points.length <= max) return [...points];
  const picked: T[] = [];
  for (let i = 0; i < max; i++) picked.push(points[Math.round((i * (points.length - 1)) / (max - 1))]!);
  return picked;
}
