/**
 * The cryptocurrency record of the v3 listings and quotes (spec, "Cryptocurrency record"): the
 * asset, its supplies and rank, and `quote` as an object keyed by currency.
 */
import type { Currency } from './currencies.js';
import { ASSETS, type Asset, assetBySlug, tokenAddress } from './market/assets.js';
import { marketPairs, totalSupply } from './market/model.js';
import { type MarketState, marketAt } from './market/snapshot.js';
import { DAY, HOUR, iso } from './market/time.js';

/** The market at t and at the three earlier instants the percent changes compare against. */
export interface QuoteFrame {
  t: number;
  now: MarketState;
  hourAgo: MarketState;
  dayAgo: MarketState;
  weekAgo: MarketState;
  /** Made on first use: only the 30-day change needs it. */
  readonly monthAgo: MarketState;
}

export function quoteFrame(t: number): QuoteFrame {
  return {
    t,
    now: marketAt(t),
    hourAgo: marketAt(t - HOUR),
    dayAgo: marketAt(t - DAY),
    weekAgo: marketAt(t - 7 * DAY),
    get monthAgo() {
      return marketAt(t - 30 * DAY);
    },
  };
}

/** The change over a period name (1h, 24h, 7d, 30d) in USD: what the trending lists sort by. */
export function changeOver(period: string, i: number, f: QuoteFrame): number {
  const then = { '1h': f.hourAgo, '7d': f.weekAgo, '30d': f.monthAgo }[period] ?? f.dayAgo;
  return then.listed[i] ? percentChange(i, f.now, then) : Number.NaN;
}

/** Percent change of asset i's price from `then` to `now`, in currency c (USD when c is omitted). */
export function percentChange(i: number, now: MarketState, then: MarketState, c?: Currency): number {
  const ratio = now.price[i]! / then.price[i]!;
  const fx = c ? c.usdAt(then.t) / c.usdAt(now.t) : 1;
  return (ratio * fx - 1) * 100;
}

/** A token's chain and contract address; null for a coin. */
export function platformOf(a: Asset) {
  if (a.platform === null) return null;
  const chain = assetBySlug.get(a.platform) as Asset;
  return {
    id: chain.id,
    name: chain.name,
    symbol: chain.symbol,
    slug: chain.slug,
    token_address: tokenAddress(a),
  };
}

/** One asset's quote in one currency. */
function quoteIn(i: number, f: QuoteFrame, c: Currency, lastUpdated: string) {
  const m = f.now;
  const a = ASSETS[i]!;
  const rate = c.usdAt(f.t);
  const price = m.price[i]! / rate;
  const fullSupply = a.maxSupply ?? totalSupply(a, m.supply[i]!);
  return {
    price,
    volume_24h: m.volume[i]! / rate,
    percent_change_1h: percentChange(i, m, f.hourAgo, c),
    percent_change_24h: percentChange(i, m, f.dayAgo, c),
    percent_change_7d: percentChange(i, m, f.weekAgo, c),
    percent_change_30d: percentChange(i, m, f.monthAgo, c),
    market_cap: m.cap[i]! / rate,
    market_cap_dominance: (m.cap[i]! / m.totalCap) * 100,
    fully_diluted_market_cap: price * fullSupply,
    last_updated: lastUpdated,
  };
}

/** The full record of asset i at the frame's instant. */
export function assetRecord(i: number, f: QuoteFrame, currencies: readonly Currency[]) {
  const a = ASSETS[i]!;
  const m = f.now;
  const lastUpdated = iso(f.t);
  const quote: Record<string, ReturnType<typeof quoteIn>> = {};
  for (const c of currencies) quote[c.key] = quoteIn(i, f, c, lastUpdated);
  return {
    id: a.id,
    name: a.name,
    symbol: a.symbol,
    slug: a.slug,
    svc_rank: m.rank[i],
    num_market_pairs: marketPairs(a),
    date_added: iso(a.dateAdded),
    tags: a.tags,
    max_supply: a.maxSupply,
    circulating_supply: m.supply[i],
    total_supply: totalSupply(a, m.supply[i]!),
    platform: platformOf(a),
    last_updated: lastUpdated,
    quote,
  };
}

/** Volume over the last `days` days: the sum of the 24h volumes at each day's end. */
export function volumeOverDays(i: number, t: number, days: number): number {
  let sum = 0;
  for (let k = 0; k < days; k++) sum += marketAt(t - k * DAY).volume[i]!;
  return sum;
}

/** Records as JSON for one instant and currency list: listings pages reuse them within the minute. */
let recordCache: { key: string; json: (string | undefined)[] } | undefined;

export function assetRecordJson(i: number, f: QuoteFrame, currencies: readonly Currency[]): string {
  const key = `${f.t}|${currencies.map((c) => c.key).join(',')}`;
  if (recordCache?.key !== key) recordCache = { key, json: [] };
  let json = recordCache.json[i];
  if (json === undefined) {
    json = JSON.stringify(assetRecord(i, f, currencies));
    recordCache.json[i] = json;
  }
  return json;
}

const TAG_NAMES: Readonly<Record<string, string>> = {
  defi: 'DeFi',
  dex: 'DEX',
  ai: 'AI',
  nft: 'NFT',
  rwa: 'RWA',
  pow: 'PoW',
  pos: 'PoS',
  gpu: 'GPU',
  iot: 'IoT',
};

/** "layer-1" → "Layer 1", "defi" → "DeFi": how the service names a tag. */
export function tagName(slug: string): string {
  return slug
    .split('-')
    .map((word) => TAG_NAMES[word] ?? word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}
