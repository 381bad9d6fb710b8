/** Listings and quotes, latest (v3); the frame and orderings other lists share. */

import { resolveConvert } from '../currencies.js';
import { ASSETS } from '../market/assets.js';
import { marketPairs, totalSupply } from '../market/model.js';
import { floorTo, MINUTE } from '../market/time.js';
import { assetRecordJson, percentChange, type QuoteFrame, quoteFrame, volumeOverDays } from '../records.js';
import type { cryptocurrency as endpoints } from '../service/index.js';
import { namedAssets } from './named.js';
import type { HandlerOf } from './types.js';

/** Latest quotes are those of the current minute (the listings refresh every 60 s). */
export function latestFrame(now: number): QuoteFrame {
  return quoteFrame(floorTo(now, MINUTE));
}

type SortKey = (i: number) => number | string | null;

export function sortKey(sort: string, f: QuoteFrame): SortKey {
  const m = f.now;
  switch (sort) {
    case 'name':
      return (i) => ASSETS[i]!.name.toLowerCase();
    case 'symbol':
      return (i) => ASSETS[i]!.symbol;
    case 'date_added':
      return (i) => ASSETS[i]!.dateAdded;
    case 'price':
      return (i) => m.price[i]!;
    case 'circulating_supply':
      return (i) => m.supply[i]!;
    case 'total_supply':
      return (i) => totalSupply(ASSETS[i]!, m.supply[i]!);
    case 'max_supply':
      return (i) => ASSETS[i]!.maxSupply;
    case 'num_market_pairs':
      return (i) => marketPairs(ASSETS[i]!);
    case 'volume_24h':
      return (i) => m.volume[i]!;
    case 'percent_change_1h':
      return (i) => percentChange(i, m, f.hourAgo);
    case 'percent_change_24h':
      return (i) => percentChange(i, m, f.dayAgo);
    case 'percent_change_7d':
      return (i) => percentChange(i, m, f.weekAgo);
    case 'market_cap_by_total_supply_strict':
      return (i) => m.price[i]! * totalSupply(ASSETS[i]!, m.supply[i]!);
    case 'volume_7d':
      return (i) => volumeOverDays(i, f.t, 7);
    case 'volume_30d':
      return (i) => volumeOverDays(i, f.t, 30);
    default:
      // market_cap and market_cap_strict: the sandbox counts every listed asset's cap.
      return (i) => m.cap[i]!;
  }
}

/** Sorted by key, nulls last in either direction; ties keep market-cap rank order. */
export function sortBy(rows: number[], key: SortKey, dir: 'asc' | 'desc', rank: Int32Array): number[] {
  const keys = new Map(rows.map((i) => [i, key(i)]));
  const sign = dir === 'asc' ? 1 : -1;
  return rows.sort((x, y) => {
    const a = keys.get(x) ?? null;
    const b = keys.get(y) ?? null;
    if (a === null || b === null) return a === b ? rank[x]! - rank[y]! : a === null ? 1 : -1;
    const order = typeof a === 'string' ? a.localeCompare(b as string) : a - (b as number);
    return order === 0 ? rank[x]! - rank[y]! : sign * order;
  });
}

const RANGES = ['price', 'market_cap', 'volume_24h', 'circulating_supply', 'percent_change_24h'] as const;

function rangeValue(name: (typeof RANGES)[number], i: number, f: QuoteFrame): number {
  const m = f.now;
  if (name === 'price') return m.price[i]!;
  if (name === 'market_cap') return m.cap[i]!;
  if (name === 'volume_24h') return m.volume[i]!;
  if (name === 'circulating_supply') return m.supply[i]!;
  return percentChange(i, m, f.dayAgo);
}

export const listingsLatest: HandlerOf<typeof endpoints.listingsLatest> = {
  envelope: 'standard',
  handle({ params, now }) {
    const p = params;
    const currencies = resolveConvert(params);
    const f = latestFrame(now);
    const type = p.cryptocurrency_type ?? 'all';
    const tag = p.tag ?? 'all';
    let rows = Array.from(f.now.order).filter((i) => {
      const a = ASSETS[i]!;
      if (type === 'coins' && a.platform !== null) return false;
      if (type === 'tokens' && a.platform === null) return false;
      return tag === 'all' || a.tags.includes(tag);
    });
    for (const name of RANGES) {
      const min = p[`${name}_min`];
      const max = p[`${name}_max`];
      if (min === undefined && max === undefined) continue;
      rows = rows.filter((i) => {
        const v = rangeValue(name, i, f);
        return (min === undefined || v >= min) && (max === undefined || v <= max);
      });
    }
    const sort = p.sort ?? 'market_cap';
    if (sort !== 'market_cap' || p.sort_dir === 'asc') {
      rows = sortBy(rows, sortKey(sort, f), p.sort_dir ?? 'desc', f.now.rank);
    }
    const page = rows.slice(p.start - 1, p.start - 1 + p.limit);
    return {
      dataJson: `[${page.map((i) => assetRecordJson(i, f, currencies)).join(',')}]`,
      items: page.length,
    };
  },
};

export const quotesLatest: HandlerOf<typeof endpoints.quotesLatest> = {
  envelope: 'standard',
  handle({ params, now }) {
    const currencies = resolveConvert(params);
    const f = latestFrame(now);
    const { assets } = namedAssets(params, { skipByDefault: false, listed: f.now.listed });
    return {
      dataJson: `[${assets.map((a) => assetRecordJson(a.index, f, currencies)).join(',')}]`,
      items: assets.length,
    };
  },
};
