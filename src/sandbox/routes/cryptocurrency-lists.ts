/** New listings, gainers and losers, trending and most visited (from the model's moves), and a past day's listings. */

import { checkDepth } from '../accounts.js';
import { resolveConvert } from '../currencies.js';
import { badRequest } from '../envelope.js';
import { ASSETS } from '../market/assets.js';
import { unit } from '../market/noise.js';
import { DAY, floorTo, HOUR, historyStart, iso, SLOT } from '../market/time.js';
import { assetRecordJson, changeOver, type QuoteFrame, quoteFrame } from '../records.js';
import type { lists as endpoints } from '../service/index.js';
import { latestFrame, sortBy, sortKey } from './cryptocurrency.js';
import type { HandlerOf, RouteResult } from './types.js';

type Page = { start: number; limit: number };

function pageOf(
  rows: readonly number[],
  p: Page,
  f: QuoteFrame,
  params: Record<string, unknown>,
): RouteResult {
  const currencies = resolveConvert(params);
  const page = rows.slice(p.start - 1, p.start - 1 + p.limit);
  return {
    dataJson: `[${page.map((i) => assetRecordJson(i, f, currencies)).join(',')}]`,
    items: page.length,
  };
}

/** By the change over time_period, largest first (desc, the default) or smallest first (asc). */
export const gainersLosers: HandlerOf<typeof endpoints.gainersLosers> = {
  envelope: 'standard',
  handle({ params, now }) {
    const p = params;
    const f = latestFrame(now);
    const change = new Map<number, number>();
    for (const i of f.now.order) {
      const c = changeOver(p.time_period, i, f);
      if (!Number.isNaN(c)) change.set(i, c);
    }
    const sign = p.sort_dir === 'asc' ? 1 : -1;
    const rows = [...change.keys()].sort((x, y) => sign * ((change.get(x) ?? 0) - (change.get(y) ?? 0)));
    return pageOf(rows, p, f, params);
  },
};

/** How long each period's ranking holds: searches and visits are counted in buckets. */
const BUCKET: Readonly<Record<string, number>> = { '24h': HOUR, '7d': DAY, '30d': DAY };

/**
 * Searches follow moves: an asset's chance to trend grows with its move over the period, plus a
 * draw that changes each bucket. Visits follow size: market cap, plus a smaller draw.
 */
function rankedBy(
  seed: number,
  score: (i: number, f: QuoteFrame, draw: number) => number,
): HandlerOf<typeof endpoints.trendingLatest | typeof endpoints.mostVisited> {
  return {
    envelope: 'standard',
    handle({ params, now }) {
      const p = params;
      const f = latestFrame(now);
      const bucket = floorTo(now, BUCKET[p.time_period] ?? HOUR);
      const scores = new Map<number, number>();
      for (const i of f.now.order) scores.set(i, score(i, f, unit(seed ^ ASSETS[i]!.id, bucket / HOUR)));
      const rows = [...f.now.order].sort((x, y) => (scores.get(y) ?? 0) - (scores.get(x) ?? 0));
      return pageOf(rows, p, f, params);
    },
  };
}

export const trendingLatest = rankedBy(0x5ea2c4, (i, f, draw) => {
  const move = changeOver('24h', i, f);
  return draw + (Number.isNaN(move) ? 0 : Math.abs(move) / 10);
});

export const mostVisited = rankedBy(0x715175, (i, f, draw) => Math.log10(f.now.cap[i]! + 1) + 1.5 * draw);

/** The ranking at the end of a completed UTC day: the day's last 5-minute snapshot. */
export const listingsHistorical: HandlerOf<typeof endpoints.listingsHistorical> = {
  envelope: 'standard',
  handle({ params, now, plan }) {
    const p = params;
    const day = floorTo(p.date, DAY);
    if (day + DAY > now) {
      throw badRequest(
        `Invalid value for "date": ${iso(day).slice(0, 10)} is not a completed UTC day yet; the latest is ${iso(floorTo(now, DAY) - DAY).slice(0, 10)}.`,
      );
    }
    if (day < historyStart(now)) {
      throw badRequest(
        `Invalid value for "date": the sandbox's history starts ${iso(historyStart(now)).slice(0, 10)}.`,
      );
    }
    checkDepth(plan, now, day, { what: 'listings history', advice: 'Ask for a later date' });
    const f = quoteFrame(day + DAY - SLOT);
    const type = params.cryptocurrency_type ?? 'all';
    let rows = Array.from(f.now.order).filter((i) => {
      const isToken = ASSETS[i]!.platform !== null;
      return type === 'all' || (type === 'tokens') === isToken;
    });
    const sort = p.sort ?? 'svc_rank';
    // The ranking itself is svc_rank ascending; every other key sorts descending by default.
    if (sort === 'svc_rank') {
      if (p.sort_dir === 'desc') rows.reverse();
    } else {
      rows = sortBy(rows, sortKey(sort, f), p.sort_dir ?? 'desc', f.now.rank);
    }
    return pageOf(rows, p, f, params);
  },
};

/** Newest first (or oldest, asc): every listed asset by date added. */
export const newCryptocurrencies: HandlerOf<typeof endpoints.newCryptocurrencies> = {
  envelope: 'standard',
  handle({ params, now }) {
    const p = params;
    const f = latestFrame(now);
    const sign = p.sort_dir === 'asc' ? 1 : -1;
    const rows = Array.from(f.now.order).sort(
      (x, y) => sign * (ASSETS[x]!.dateAdded - ASSETS[y]!.dateAdded) || f.now.rank[x]! - f.now.rank[y]!,
    );
    return pageOf(rows, p, f, params);
  },
};
