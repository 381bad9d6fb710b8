/** The svc100 and svc20 indices: latest and historical. */

import { historyRange } from '../history.js';
import { type IndexName, indexAt } from '../market/indices.js';
import { DAY, floorTo, historyStart, isoSeconds } from '../market/time.js';
import type { indices as endpoints } from '../service/index.js';
import { type HandlerOf, lastValueMemo } from './types.js';

type LatestHandler = HandlerOf<typeof endpoints.svc100Latest | typeof endpoints.svc20Latest>;
type HistoricalHandler = HandlerOf<typeof endpoints.svc100Historical | typeof endpoints.svc20Historical>;

/** The indices are recomputed every 5 minutes; next_update is last_update plus 5 minutes. */
const UPDATE = 300;
const INTERVAL_SECONDS: Readonly<Record<string, number>> = { '5m': 300, '15m': 900, daily: DAY };

function latest(index: IndexName): LatestHandler {
  const memo = lastValueMemo<string>();
  return {
    envelope: 'string-code',
    handle({ now }) {
      const t = floorTo(now, UPDATE);
      const dataJson = memo(String(t), () => {
        const current = indexAt(index, t);
        const dayAgo = indexAt(index, t - DAY);
        return JSON.stringify({
          constituents: current.constituents,
          last_update: isoSeconds(t),
          next_update: isoSeconds(t + UPDATE),
          value: current.value,
          value_24h_percentage_change: (current.value / dayAgo.value - 1) * 100,
        });
      });
      // One index value answered.
      return { dataJson, items: 1, totalCount: 1 };
    },
  };
}

/**
 * Values on the interval's grid (multiples of 5 or 15 minutes, or 00:00 UTC). With time_start,
 * `count` values from the first grid time at or after it, up to time_end; without, `count` values
 * back from the last grid time at or before time_end.
 */
function historical(index: IndexName): HistoricalHandler {
  return {
    envelope: 'string-code',
    handle({ params, now }) {
      const p = params;
      const step = INTERVAL_SECONDS[p.interval]!;
      const { start, end } = historyRange(p, now);
      const first = historyStart(now);
      const times: number[] = [];
      if (start !== undefined) {
        for (let t = Math.ceil(start / step) * step; times.length < p.count && t <= end; t += step)
          times.push(t);
      } else {
        for (let k = p.count - 1; k >= 0; k--) times.push(floorTo(end, step) - k * step);
      }
      const items = times
        .filter((t) => t >= first)
        .map((t) => {
          const v = indexAt(index, t);
          return { constituents: v.constituents, update_time: isoSeconds(t), value: v.value };
        });
      return { dataJson: JSON.stringify(items), items: items.length, totalCount: items.length };
    },
  };
}

export const svc100Latest = latest('svc100');
export const svc100Historical = historical('svc100');
export const svc20Latest = latest('svc20');
export const svc20Historical = historical('svc20');
