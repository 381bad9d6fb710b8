/** Fear and greed, and altcoin season: latest and historical. */

import { globalAt } from '../market/metrics.js';
import { altcoinSeasonAt, fearAndGreedAt, fearAndGreedClassification } from '../market/sentiment.js';
import { DAY, floorTo, historyStart, iso } from '../market/time.js';
import { sentiment as endpoints } from '../service/index.js';
import { type HandlerOf, lastValueMemo } from './types.js';

/** Both indices refresh as often as the table's latest endpoints say (docs/service.md, "Endpoints"). */
const BUCKET = endpoints.fearAndGreedLatest.refreshSeconds;

/** Values at 00:00 UTC never change: keep every day computed (six years is ~2,200 numbers). */
function dailyCache(compute: (t: number) => number): (day: number) => number {
  const values = new Map<number, number>();
  return (day) => {
    let v = values.get(day);
    if (v === undefined) {
      v = compute(day);
      values.set(day, v);
    }
    return v;
  };
}

const fearAndGreedDaily = dailyCache(fearAndGreedAt);
const altcoinSeasonDaily = dailyCache((t) => altcoinSeasonAt(t));

const fearAndGreedMemo = lastValueMemo<string>();

export const fearAndGreedLatest: HandlerOf<typeof endpoints.fearAndGreedLatest> = {
  envelope: 'standard',
  handle({ now }) {
    const t = floorTo(now, BUCKET);
    const dataJson = fearAndGreedMemo(String(t), () => {
      const value = fearAndGreedAt(t);
      return JSON.stringify({
        value,
        value_classification: fearAndGreedClassification(value),
        update_time: iso(t),
      });
    });
    return { dataJson, items: 1 };
  },
};

export const fearAndGreedHistorical: HandlerOf<typeof endpoints.fearAndGreedHistorical> = {
  envelope: 'standard',
  handle({ params, now }) {
    const { start, limit } = params;
    const today = floorTo(now, DAY);
    const first = historyStart(now);
    const items: { timestamp: string; value: number; value_classification: string }[] = [];
    for (let k = start - 1; k < start - 1 + limit; k++) {
      const day = today - k * DAY;
      if (day < first) break;
      const value = fearAndGreedDaily(day);
      items.push({ timestamp: String(day), value, value_classification: fearAndGreedClassification(value) });
    }
    return { dataJson: JSON.stringify(items), items: items.length };
  },
};

const altcoinMemo = lastValueMemo<string>();

export const altcoinSeasonLatest: HandlerOf<typeof endpoints.altcoinSeasonLatest> = {
  envelope: 'standard',
  handle({ now }) {
    const t = floorTo(now, BUCKET);
    const dataJson = altcoinMemo(String(t), () => {
      const value = altcoinSeasonAt(t);
      // The year's range over the daily values, the current one included.
      let high = { value, t };
      let low = { value, t };
      const today = floorTo(t, DAY);
      for (let k = 0; k < 365; k++) {
        const day = today - k * DAY;
        const v = altcoinSeasonDaily(day);
        if (v > high.value) high = { value: v, t: day };
        if (v < low.value) low = { value: v, t: day };
      }
      return JSON.stringify({
        altcoin_index: value,
        altcoin_marketcap: globalAt(t).altcoinMarketCap,
        snapshot_time: iso(t),
        yearly_high: high.value,
        yearly_high_date: iso(high.t),
        yearly_low: low.value,
        yearly_low_date: iso(low.t),
      });
    });
    return { dataJson, items: 1 };
  },
};

const TIMEFRAME_DAYS: Readonly<Record<string, number>> = { '7d': 7, '30d': 30, '90d': 90 };

export const altcoinSeasonHistorical: HandlerOf<typeof endpoints.altcoinSeasonHistorical> = {
  envelope: 'standard',
  handle({ params, now }) {
    const timeframe = params.timeframe;
    const days = TIMEFRAME_DAYS[timeframe]!;
    const today = floorTo(now, DAY);
    const points = [];
    // One point per day at 00:00 UTC over the timeframe, oldest first.
    for (let k = days - 1; k >= 0; k--) {
      const day = today - k * DAY;
      points.push({
        timestamp: iso(day),
        altcoin_index: altcoinSeasonDaily(day),
        altcoin_marketcap: globalAt(day).altcoinMarketCap,
      });
    }
    return { dataJson: JSON.stringify({ timeframe, points }), items: points.length };
  },
};
