/**
 * Global market figures at an instant: sums over the same snapshot the listings read, so the
 * global market cap is exactly the sum of the listed caps and btc_dominance is bitcoin's share.
 */
import { ASSETS, BITCOIN, ETHEREUM } from './assets.js';
import { seedOf, valueNoise } from './noise.js';
import { Lru, marketAt } from './snapshot.js';
import { DAY } from './time.js';

export interface GlobalFigures {
  t: number;
  totalMarketCap: number;
  totalVolume24h: number;
  totalVolume24hReported: number;
  altcoinMarketCap: number;
  altcoinVolume24h: number;
  altcoinVolume24hReported: number;
  btcDominance: number;
  ethDominance: number;
  activeCryptocurrencies: number;
  totalCryptocurrencies: number;
  activeMarketPairs: number;
  activeExchanges: number;
  totalExchanges: number;
}

/** Reported volume includes what the service discounts as suspicious: a steady ~12% more. */
const REPORTED_VOLUME_FACTOR = 1.12;
const EXCHANGE_SEED = seedOf('exchanges');
const EXCHANGES_EPOCH = Date.UTC(2020, 0, 1) / 1000;

/** Exchanges are not modelled one by one: their counts grow slowly with a little wobble. */
function exchangeCounts(t: number): { active: number; total: number } {
  const years = (t - EXCHANGES_EPOCH) / (365 * DAY);
  const active = Math.round(560 + 35 * years + 12 * valueNoise(EXCHANGE_SEED, t, 30 * DAY));
  return { active, total: active + Math.round(7400 + 300 * years) };
}

/**
 * Global figures by instant: a long history (10,000 points at 5 minutes) reads one per point, and
 * the same histories are asked for again; each entry is a dozen numbers, unlike a whole snapshot.
 */
const figures = new Lru<number, GlobalFigures>(25_000);

/** The global market figures at Unix second t. */
export function globalAt(t: number): GlobalFigures {
  return figures.get(Math.floor(t), computeGlobal);
}

function computeGlobal(t: number): GlobalFigures {
  const m = marketAt(t);
  const btcCap = m.cap[BITCOIN.index]!;
  const btcVolume = m.volume[BITCOIN.index]!;
  const exchanges = exchangeCounts(t);
  return {
    t,
    totalMarketCap: m.totalCap,
    totalVolume24h: m.totalVolume,
    totalVolume24hReported: m.totalVolume * REPORTED_VOLUME_FACTOR,
    altcoinMarketCap: m.totalCap - btcCap,
    altcoinVolume24h: m.totalVolume - btcVolume,
    altcoinVolume24hReported: (m.totalVolume - btcVolume) * REPORTED_VOLUME_FACTOR,
    btcDominance: m.totalCap > 0 ? (btcCap / m.totalCap) * 100 : 0,
    ethDominance: m.totalCap > 0 ? (m.cap[ETHEREUM.index]! / m.totalCap) * 100 : 0,
    activeCryptocurrencies: m.listedCount,
    // The sandbox has no delisted assets: every asset it has ever listed is still active.
    totalCryptocurrencies: m.listedCount,
    activeMarketPairs: m.marketPairs,
    activeExchanges: exchanges.active,
    totalExchanges: exchanges.total,
  };
}

/** Market cap of the assets whose price floats (stablecoins, gold and wrapped assets aside). */
export function riskMarketCap(t: number): number {
  const m = marketAt(t);
  let sum = 0;
  for (const i of m.order) if (ASSETS[i]!.peg.kind === 'free') sum += m.cap[i]!;
  return sum;
}
