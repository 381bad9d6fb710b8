/**
 * The whole market at one instant: every asset's price, supply, cap and volume, the ranking by
 * market cap, and the totals. Every endpoint reads these, which is what makes them agree with each
 * other at the same instant. Snapshots are cached, since hot endpoints ask for the same instants.
 */
import { ASSETS } from './assets.js';
import { circulatingSupply, marketPairs, pricesAt, volume24h } from './model.js';

export interface MarketState {
  t: number;
  /** Per asset, indexed by Asset.index. The model prices even unlisted assets (for conversions). */
  price: Float64Array;
  /** Supply, cap and volume are zero where the asset was not yet listed at t. */
  supply: Float64Array;
  cap: Float64Array;
  volume: Float64Array;
  listed: Uint8Array;
  /** Indices of the listed assets, largest market cap first. */
  readonly order: Int32Array;
  /** Rank by market cap (1 = largest), 0 when not listed. */
  readonly rank: Int32Array;
  totalCap: number;
  totalVolume: number;
  listedCount: number;
  marketPairs: number;
}

/** A small least-recently-used cache: a Map keeps insertion order, so the first key is the oldest. */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly size: number) {}

  get(key: K, make: (key: K) => V): V {
    const hit = this.map.get(key);
    if (hit !== undefined) {
      this.map.delete(key);
      this.map.set(key, hit);
      return hit;
    }
    const value = make(key);
    this.map.set(key, value);
    if (this.map.size > this.size) this.map.delete(this.map.keys().next().value as K);
    return value;
  }
}

/**
 * The ranking is made on first use: long historical series of global totals never need it, and
 * sorting is most of the cost of a snapshot.
 */
class Snapshot implements MarketState {
  private ranking?: { order: Int32Array; rank: Int32Array };
  totalCap = 0;
  totalVolume = 0;
  listedCount = 0;
  marketPairs = 0;
  readonly supply: Float64Array;
  readonly cap: Float64Array;
  readonly volume: Float64Array;
  readonly listed: Uint8Array;

  constructor(
    readonly t: number,
    readonly price: Float64Array,
  ) {
    const n = ASSETS.length;
    this.supply = new Float64Array(n);
    this.cap = new Float64Array(n);
    this.volume = new Float64Array(n);
    this.listed = new Uint8Array(n);
  }

  get order(): Int32Array {
    return this.ranked().order;
  }

  get rank(): Int32Array {
    return this.ranked().rank;
  }

  private ranked() {
    if (!this.ranking) {
      const cap = this.cap;
      const order = Int32Array.from(ASSETS.filter((a) => this.listed[a.index]).map((a) => a.index)).sort(
        (x, y) => cap[y]! - cap[x]! || ASSETS[x]!.id - ASSETS[y]!.id,
      );
      const rank = new Int32Array(ASSETS.length);
      order.forEach((i, position) => {
        rank[i] = position + 1;
      });
      this.ranking = { order, rank };
    }
    return this.ranking;
  }
}

function computeMarket(t: number): MarketState {
  const m = new Snapshot(t, pricesAt(t));
  for (let i = 0; i < ASSETS.length; i++) {
    const a = ASSETS[i]!;
    if (t < a.dateAdded) continue;
    m.listed[i] = 1;
    m.supply[i] = circulatingSupply(a, t);
    m.cap[i] = m.price[i]! * m.supply[i]!;
    m.volume[i] = volume24h(a, t, m.cap[i]!);
    m.totalCap += m.cap[i]!;
    m.totalVolume += m.volume[i]!;
    m.listedCount++;
    m.marketPairs += marketPairs(a);
  }
  return m;
}

const cache = new Lru<number, MarketState>(2048);

/** The market at Unix second t (whole seconds). */
export function marketAt(t: number): MarketState {
  return cache.get(Math.floor(t), computeMarket);
}
