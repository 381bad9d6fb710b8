/**
 * The svc100 and svc20 indices: the top 100 / top 20 assets by market cap at an instant, weighted
 * by market cap. The value is the constituents' total cap over a fixed divisor, so it moves with
 * the market and jumps nowhere when a constituent changes.
 */
import { ASSETS } from './assets.js';
import { marketAt } from './snapshot.js';

export type IndexName = 'svc100' | 'svc20';

const INDEX_SIZE: Readonly<Record<IndexName, number>> = { svc100: 100, svc20: 20 };
/** Chosen so that both indices read in the low hundreds around the reference date. */
const DIVISOR: Readonly<Record<IndexName, number>> = { svc100: 1.5e10, svc20: 1.4e10 };

export interface Constituent {
  id: number;
  name: string;
  symbol: string;
  url: string;
  weight: number;
  priceUsd?: number;
  units?: number;
}

export interface IndexValue {
  t: number;
  value: number;
  constituents: Constituent[];
}

function computeIndex(index: IndexName, t: number): IndexValue {
  const m = marketAt(t);
  const members = Array.from(m.order.subarray(0, INDEX_SIZE[index]));
  const sumCap = members.reduce((sum, i) => sum + m.cap[i]!, 0);
  const value = sumCap / DIVISOR[index];
  const constituents = members.map((i): Constituent => {
    const a = ASSETS[i]!;
    const weight = (m.cap[i]! / sumCap) * 100;
    const base: Constituent = {
      id: a.id,
      name: a.name,
      symbol: a.symbol,
      url: `https://sandbox.svc.invalid/currencies/${a.slug}/`,
      weight,
    };
    if (index !== 'svc20') return base;
    // units × price is the constituent's share of the index value.
    return { ...base, priceUsd: m.price[i], units: ((weight / 100) * value) / m.price[i]! };
  });
  return { t, value, constituents };
}

const cache = new Map<string, IndexValue>();

/** The index at t; the last few hundred are kept, as the latest and 24h-ago values are asked often. */
export function indexAt(index: IndexName, t: number): IndexValue {
  const key = `${index}:${t}`;
  let hit = cache.get(key);
  if (!hit) {
    hit = computeIndex(index, t);
    if (cache.size >= 512) cache.delete(cache.keys().next().value as string);
    cache.set(key, hit);
  }
  return hit;
}
