/**
 * Fear and greed, and the altcoin season index, derived from the market model so that they move
 * with it: rising markets read as greed, falling or choppy ones as fear; altcoins outrunning bitcoin
 * raise the altcoin season index.
 */
import { ASSETS, BITCOIN } from './assets.js';
import { riskMarketCap } from './metrics.js';
import { marketAt } from './snapshot.js';
import { DAY } from './time.js';

const VOLATILITY_DAYS = 14;
/** A typical daily move of the floating market cap; more than this reads as fear. */
const CALM_VOLATILITY = 0.025;
const MOMENTUM_DRIFT = 0.25;

/**
 * Fear and greed at t, 0–100: momentum over a day, a week and a month, less a penalty for
 * volatility above the calm level, squashed by a logistic curve.
 */
export function fearAndGreedAt(t: number): number {
  const cap = (daysBack: number) => riskMarketCap(t - daysBack * DAY);
  const now = cap(0);
  const momentum = 6 * Math.log(now / cap(1)) + 4 * Math.log(now / cap(7)) + 2 * Math.log(now / cap(30));
  let squares = 0;
  let previous = now;
  for (let k = 1; k <= VOLATILITY_DAYS; k++) {
    const earlier = cap(k);
    squares += Math.log(previous / earlier) ** 2;
    previous = earlier;
  }
  const volatility = Math.sqrt(squares / VOLATILITY_DAYS);
  // The offset takes out the model's long-run upward drift, so that the long-run mean is neutral.
  const score = momentum - 20 * (volatility - CALM_VOLATILITY) - MOMENTUM_DRIFT;
  const value = Math.round(100 / (1 + Math.exp(-2.2 * score)));
  return Math.min(100, Math.max(0, value));
}

/** Stablecoins, gold tokens and wrapped assets are left out, as the real index leaves them out. */
function countsForAltcoinSeason(index: number): boolean {
  const a = ASSETS[index]!;
  return a.peg.kind === 'free' && a.id !== BITCOIN.id;
}

const ALTCOIN_SEASON_WINDOW = 90 * DAY;

/**
 * Altcoin season index at t: the share (0–100) of the top 100 eligible altcoins at t whose price
 * rose more than bitcoin's over the window before t.
 */
export function altcoinSeasonAt(t: number, window = ALTCOIN_SEASON_WINDOW): number {
  const now = marketAt(t);
  const then = marketAt(t - window);
  const btc = BITCOIN.index;
  const btcGrowth = now.price[btc]! / then.price[btc]!;
  let eligible = 0;
  let beat = 0;
  for (const i of now.order) {
    if (eligible === 100) break;
    if (!countsForAltcoinSeason(i) || !then.listed[i]) continue;
    eligible++;
    if (now.price[i]! / then.price[i]! > btcGrowth) beat++;
  }
  return eligible === 0 ? 0 : Math.round((beat / eligible) * 100);
}

/**
 * The service's own label of a fear and greed value (docs/service.md, "Answers"). The
 * sandbox labels as the service does, apart from the endpoints' fallback for unlabelled answers, so
 * that an end-to-end test of either catches a wrong band.
 */
const FEAR_AND_GREED_BANDS: readonly [below: number, label: string][] = [
  [20, 'Extreme Fear'],
  [40, 'Fear'],
  [60, 'Neutral'],
  [80, 'Greed'],
];

export function fearAndGreedClassification(value: number): string {
  return FEAR_AND_GREED_BANDS.find(([below]) => value < below)?.[1] ?? 'Extreme Greed';
}
