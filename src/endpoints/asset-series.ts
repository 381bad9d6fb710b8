/**
 * What the assets' series (the quotes history and the OHLCV candles) share: their parameters, their
 * credit rule and the line that sums up one asset's series.
 */

import { currencyLabel } from '../currency-ids.js';
import { formatPrice } from '../format/numbers.js';
import { describeSeries, type SeriesPoint } from '../format/series.js';
import { counted } from '../format/text.js';
import { perItems } from '../kit/credits.js';
import { enumParam, intParam } from '../kit/params.js';
import { expectedPoints, MAX_SERIES_COUNT, SERIES_COUNT_TEXT, type SeriesRange } from '../kit/series.js';
import { namedCount, timeBoundParam, timeEndParam } from './asset-params.js';

/** A series' range: its time bounds and how many points. */
export function rangeParams() {
  return {
    time_start: timeBoundParam(),
    time_end: timeEndParam,
    count: intParam(1, MAX_SERIES_COUNT, SERIES_COUNT_TEXT).optional(),
  };
}

/** Series parameters: the time range, how many points, and how far apart. */
export function seriesParams(intervals: readonly [string, ...string[]], defaultInterval: string) {
  return { ...rangeParams(), interval: enumParam(intervals).default(defaultInterval) };
}

/**
 * Data points a series call returns at most: periods per asset times assets (of the call as
 * completed, its spacing filled in), after time_start where the service takes it as exclusive.
 */
export function seriesCredits(startExclusive = false) {
  return perItems({
    per: 100,
    what: 'points',
    items: (p: Partial<SeriesRange> & { id?: string; slug?: string; symbol?: string }, now) =>
      expectedPoints(p as SeriesRange, now, startExclusive) * namedCount(p),
    scales: 'count',
    convert: true,
  });
}

/** Heading line of one asset's series: first, last, min, max and change of its first currency. */
export function seriesLine(
  a: { name: string; symbol: string },
  points: SeriesPoint[],
  currency: string,
  what: string,
): string {
  const money = (v: number) => formatPrice(v, currency);
  // None: the likeliest reason a model can check is a range before the asset's history began.
  const before =
    points.length === 0
      ? '; an asset has none before its first (get_cryptocurrency_map gives its first_historical_data)'
      : '';
  return `${a.name} (${a.symbol}) ${what} in ${currencyLabel(currency)}, ${counted(points.length, 'point')}: ${describeSeries(points, money)}${before}`;
}
