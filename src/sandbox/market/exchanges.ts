/**
 * Synthetic exchanges and the market pairs an asset trades in. An asset has as many pairs as the
 * model gives it (num_market_pairs in the listings); pair k is a direct function of (asset, k), so a
 * page costs the same wherever it starts. Volume shares fall with k, so k is also the volume order.
 */
import type { Currency } from '../currencies.js';
import { findCurrency } from '../currencies.js';
import type { Asset } from './assets.js';
import { marketPairs } from './model.js';
import { seedOf, unit, valueNoise } from './noise.js';

export interface Exchange {
  id: number;
  name: string;
  slug: string;
  feeType: 'percentage' | 'no-fees' | 'transactional-mining' | 'unknown';
}

const PREFIXES = [
  'Nova',
  'Orbit',
  'Harbor',
  'Summit',
  'Atlas',
  'Beacon',
  'Cobalt',
  'Delta',
  'Ember',
  'Falcon',
];
const MIDDLES = ['Coin', 'Chain', 'Block', 'Ledger', 'Bit', 'Token', 'Crypto', 'Hash', 'Vault', 'Mint'];
const SUFFIXES = ['Exchange', 'Markets', 'Trade', 'X'];

function feeType(seed: number): Exchange['feeType'] {
  const u = unit(seed, 1);
  return u < 0.8 ? 'percentage' : u < 0.9 ? 'no-fees' : u < 0.95 ? 'transactional-mining' : 'unknown';
}

/** 400 exchanges: every prefix, middle and suffix. */
const EXCHANGES: readonly Exchange[] = PREFIXES.flatMap((p) =>
  MIDDLES.flatMap((m) => SUFFIXES.map((s) => `${p} ${m} ${s}`)),
).map((name, k) => ({
  id: 100 + k,
  name,
  slug: name.toLowerCase().replace(/ /g, '-'),
  feeType: feeType(seedOf(name)),
}));

/** What a pair is quoted in, most traded first. */
const QUOTE_SYMBOLS = ['USDT', 'USD', 'USDC', 'BTC', 'ETH', 'EUR', 'KRW', 'JPY', 'BNB', 'TRY', 'DAI', 'GBP'];
const QUOTE_CURRENCIES: readonly Currency[] = QUOTE_SYMBOLS.map((s) => findCurrency('symbol', s) as Currency);
const PAIR_CATEGORIES = ['spot', 'perpetual', 'derivatives', 'otc'] as const;

export interface Pair {
  k: number;
  exchange: Exchange;
  base: Currency;
  quote: Currency;
  category: (typeof PAIR_CATEGORIES)[number];
  /** Share of the asset's 24h volume. */
  share: number;
  /** The pair's price as a multiple of the fair price: exchanges differ a little. */
  skew: number;
}

/** Volume shares of `count` pairs: they fall as 1/(k+1)^1.1 and sum to 1. */
function shares(count: number): (k: number) => number {
  let total = 0;
  for (let j = 0; j < count; j++) total += (j + 1) ** -1.1;
  return (k) => (k + 1) ** -1.1 / total;
}

/** The pairs of a cryptocurrency: exchange varies fastest, then quote currency, then category. */
export function assetPairs(a: Asset, base: Currency, t: number): Pair[] {
  const count = marketPairs(a);
  const quotes = QUOTE_CURRENCIES.filter((q) => q.symbol !== a.symbol).slice(0, 11);
  const perCategory = EXCHANGES.length * quotes.length;
  const share = shares(count);
  const pairs: Pair[] = [];
  for (let k = 0; k < count; k++) {
    const exchange = EXCHANGES[k % EXCHANGES.length]!;
    pairs.push({
      k,
      exchange,
      base,
      quote: quotes[Math.floor(k / EXCHANGES.length) % quotes.length]!,
      category: PAIR_CATEGORIES[Math.min(3, Math.floor(k / perCategory))]!,
      share: share(k),
      skew: 1 + 0.002 * valueNoise(a.seed ^ exchange.id, t, 3_600),
    });
  }
  return pairs;
}

/** Assets quoted in a fiat currency: the top assets against it on the 20 largest exchanges. */
export function fiatPairs(fiat: Currency, bases: readonly Currency[], t: number): Pair[] {
  const pairs: Pair[] = [];
  const count = bases.length * 20;
  const share = shares(count);
  for (let k = 0; k < count; k++) {
    const exchange = EXCHANGES[k % 20]!;
    pairs.push({
      k,
      exchange,
      base: bases[Math.floor(k / 20)]!,
      quote: fiat,
      category: 'spot',
      share: share(k),
      skew: 1 + 0.002 * valueNoise(seedOf(fiat.symbol) ^ exchange.id, t, 3_600),
    });
  }
  return pairs;
}
