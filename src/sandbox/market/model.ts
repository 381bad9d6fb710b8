/**
 * The market model: price, circulating supply and 24h volume of every asset at any Unix second, each
 * a direct O(1) function of (asset, t). Nothing replays a walk from a start date, so any instant in
 * the six years of history costs the same and answers the same every time.
 *
 * log price = log base price + drift·years + beta·market(t) + altBeta·altcoins(t) + vol·own(t),
 * where market, altcoins and own are fractal value noise (5 minutes … 1 year), all zero at the
 * reference date so that an asset's base price is its price then. The shared market factor makes
 * assets move together (fear and greed reads it); the altcoin factor makes altcoins as a group
 * beat or trail bitcoin for months (the altcoin season index reads it).
 */
import { ASSETS, type Asset, assetById } from './assets.js';
import { fractal, type Octave, seedOf, unit, valueNoise } from './noise.js';
import { DAY } from './time.js';

/** The date the asset list's prices and supplies describe. */
const REFERENCE_TIME = Date.UTC(2026, 10, 1) / 1000;
const YEAR = 31_557_600;

const MARKET_OCTAVES: readonly Octave[] = [
  { scale: 300, amplitude: 0.0012 },
  { scale: 3_600, amplitude: 0.004 },
  { scale: 21_600, amplitude: 0.008 },
  { scale: DAY, amplitude: 0.018 },
  { scale: 7 * DAY, amplitude: 0.05 },
  { scale: 30 * DAY, amplitude: 0.12 },
  { scale: 90 * DAY, amplitude: 0.25 },
  { scale: 365 * DAY, amplitude: 0.45 },
];
const ALTCOIN_OCTAVES: readonly Octave[] = [
  { scale: DAY, amplitude: 0.01 },
  { scale: 7 * DAY, amplitude: 0.04 },
  { scale: 30 * DAY, amplitude: 0.1 },
  { scale: 90 * DAY, amplitude: 0.2 },
  { scale: 365 * DAY, amplitude: 0.3 },
];
const OWN_OCTAVES: readonly Octave[] = [
  { scale: 300, amplitude: 0.0015 },
  { scale: 3_600, amplitude: 0.005 },
  { scale: DAY, amplitude: 0.02 },
  { scale: 7 * DAY, amplitude: 0.05 },
  { scale: 30 * DAY, amplitude: 0.1 },
  { scale: 180 * DAY, amplitude: 0.25 },
];
const VOLUME_OCTAVES: readonly Octave[] = [
  { scale: 14_400, amplitude: 0.1 },
  { scale: DAY, amplitude: 0.25 },
  { scale: 7 * DAY, amplitude: 0.3 },
];
const GOLD_OCTAVES: readonly Octave[] = [
  { scale: DAY, amplitude: 0.006 },
  { scale: 30 * DAY, amplitude: 0.04 },
  { scale: 365 * DAY, amplitude: 0.1 },
];

const MARKET_SEED = seedOf('market');
const ALTCOIN_SEED = seedOf('altcoins');
const GOLD_SEED = seedOf('gold');
const MARKET_AT_REFERENCE = fractal(MARKET_SEED, REFERENCE_TIME, MARKET_OCTAVES);
const ALTCOIN_AT_REFERENCE = fractal(ALTCOIN_SEED, REFERENCE_TIME, ALTCOIN_OCTAVES);
const GOLD_AT_REFERENCE = fractal(GOLD_SEED, REFERENCE_TIME, GOLD_OCTAVES);

/** Per-asset character, drawn once from the asset's seed. */
interface Character {
  logBase: number;
  beta: number;
  altBeta: number;
  vol: number;
  /** Log-price growth per year: positive means lower prices in the past. */
  drift: number;
  ownAtReference: number;
  /** 24h volume as a share of market cap, on average. */
  turnover: number;
  /** Log growth of circulating supply per year. */
  supplyGrowth: number;
  totalSupplyFactor: number;
  marketPairs: number;
}

function characterOf(a: Asset): Character {
  const u = (k: number) => unit(a.seed, k);
  const isBitcoin = a.id === 1;
  const isEther = a.id === 1027;
  const cap = a.basePrice * a.baseSupply;
  return {
    logBase: Math.log(a.basePrice),
    beta: isBitcoin ? 1 : isEther ? 1.15 : 1 + 0.5 * u(1),
    altBeta: isBitcoin ? 0 : isEther ? 0.5 : 0.6 + 0.8 * u(2),
    vol: isBitcoin ? 0.25 : isEther ? 0.4 : 0.6 + 0.8 * u(3),
    drift: isBitcoin ? 0.3 : 0.1 + 0.4 * u(4),
    ownAtReference: fractal(a.seed, REFERENCE_TIME, OWN_OCTAVES),
    turnover: a.stable ? 0.35 + 0.3 * u(5) : isBitcoin ? 0.03 : 0.02 + 0.12 * u(5),
    supplyGrowth: a.stable ? 0.25 + 0.2 * u(6) : isBitcoin ? 0.0085 : 0.01 + 0.12 * u(6),
    totalSupplyFactor: a.stable || isBitcoin ? 1 : 1 + 0.4 * u(7),
    marketPairs: Math.round(12 + 9000 * (cap / 2e12) ** 0.45 * (0.7 + 0.6 * u(8))),
  };
}

const CHARACTER: readonly Character[] = ASSETS.map(characterOf);

/** Log of the shared market factor at t, zero at the reference date. */
function marketFactor(t: number): number {
  return fractal(MARKET_SEED, t, MARKET_OCTAVES) - MARKET_AT_REFERENCE;
}

function altcoinFactor(t: number): number {
  return fractal(ALTCOIN_SEED, t, ALTCOIN_OCTAVES) - ALTCOIN_AT_REFERENCE;
}

function goldUsd(t: number, base: number): number {
  return (
    base *
    Math.exp(0.08 * ((t - REFERENCE_TIME) / YEAR) + fractal(GOLD_SEED, t, GOLD_OCTAVES) - GOLD_AT_REFERENCE)
  );
}

/** A stablecoin wobbles within about ±0.1% of its peg. */
function pegWobble(seed: number, t: number): number {
  return 1 + 0.0006 * valueNoise(seed, t, 3_600) + 0.0003 * valueNoise(seed ^ 0x51ab, t, 300);
}

function freePrice(i: number, t: number, market: number, altcoins: number): number {
  const c = CHARACTER[i]!;
  const years = (t - REFERENCE_TIME) / YEAR;
  const own = fractal(ASSETS[i]!.seed, t, OWN_OCTAVES) - c.ownAtReference;
  return Math.exp(c.logBase + c.drift * years + c.beta * market + c.altBeta * altcoins + c.vol * own);
}

/** Wrapped assets are priced after the assets they wrap: this is the order to compute them in. */
const PRICE_ORDER: readonly number[] = [
  ...ASSETS.filter((a) => !a.wrapped).map((a) => a.index),
  ...ASSETS.filter((a) => a.wrapped).map((a) => a.index),
];

/** Asset i's USD price given the shared factors at t; `priceOf` gives an underlying asset's price. */
function pegPrice(
  i: number,
  t: number,
  market: number,
  altcoins: number,
  priceOf: (j: number) => number,
): number {
  const a = ASSETS[i]!;
  const peg = a.peg;
  switch (peg.kind) {
    case 'free':
      return freePrice(i, t, market, altcoins);
    case 'usd':
      return pegWobble(a.seed, t);
    case 'gold':
      return goldUsd(t, a.basePrice) * pegWobble(a.seed, t);
    case 'wrapped': {
      const underlying = assetById.get(peg.underlying) as Asset;
      return priceOf(underlying.index) * peg.ratio * (1 + 0.0004 * valueNoise(a.seed, t, 3_600));
    }
  }
}

/** USD prices of every asset at t, indexed by Asset.index. */
export function pricesAt(t: number): Float64Array {
  const prices = new Float64Array(ASSETS.length);
  const market = marketFactor(t);
  const altcoins = altcoinFactor(t);
  for (const i of PRICE_ORDER) prices[i] = pegPrice(i, t, market, altcoins, (j) => prices[j]!);
  return prices;
}

/**
 * Asset i's USD price at t, computed for that asset alone: the same number pricesAt gives, for
 * series (candles) that need one asset at many instants.
 */
export function priceAt(i: number, t: number): number {
  return pegPrice(i, t, marketFactor(t), altcoinFactor(t), (j) => priceAt(j, t));
}

/** Circulating supply at t: grows (or, looking back, shrinks) smoothly, never above max supply. */
export function circulatingSupply(a: Asset, t: number): number {
  const c = CHARACTER[a.index]!;
  const years = (t - REFERENCE_TIME) / YEAR;
  const supply = a.baseSupply * Math.exp(c.supplyGrowth * years);
  return a.maxSupply === null ? supply : Math.min(supply, a.maxSupply);
}

/** Total supply: circulating plus a fixed locked share, never above max supply. */
export function totalSupply(a: Asset, circulating: number): number {
  const total = circulating * CHARACTER[a.index]!.totalSupplyFactor;
  return a.maxSupply === null ? total : Math.min(total, Math.max(a.maxSupply, circulating));
}

/** 24h volume in USD: a share of market cap that swells and fades over hours and days. */
export function volume24h(a: Asset, t: number, marketCap: number): number {
  return CHARACTER[a.index]!.turnover * marketCap * Math.exp(fractal(a.seed ^ 0x70b, t, VOLUME_OCTAVES));
}

export function marketPairs(a: Asset): number {
  return CHARACTER[a.index]!.marketPairs;
}
