/**
 * The analysis of a set of assets against a benchmark: each asset's figures from its own complete
 * closes, its beta and correlation from the returns it shares in time with the benchmark, and the
 * correlation of every pair of assets the same way.
 */
import { alignedReturns, type Closes } from './candles.js';
import {
  beta,
  bollingerPctB,
  correlation,
  ema,
  type Interval,
  macd,
  maxDrawdown,
  returnPct,
  rsi,
  sma,
  volatilityPct,
} from './figures.js';

export interface TimedClose {
  time: string;
  close: number;
}

export interface AssetFigures {
  id: number;
  symbol: string;
  name: string;
  points: number;
  first: TimedClose | null;
  last: TimedClose | null;
  return_pct: number | null;
  volatility_pct: number | null;
  max_drawdown_pct: number | null;
  drawdown_peak_time: string | null;
  drawdown_trough_time: string | null;
  highest_close: TimedClose | null;
  lowest_close: TimedClose | null;
  sma: { '20': number | null; '50': number | null; '200': number | null };
  ema: { '12': number | null; '26': number | null };
  rsi_14: number | null;
  macd: { line: number; signal: number; histogram: number } | null;
  bollinger_pct_b: number | null;
  beta: number | null;
  correlation: number | null;
}

export interface Correlation {
  a: string;
  b: string;
  value: number | null;
}

function at(series: Closes, index: number | undefined): TimedClose | null {
  return index === undefined || index < 0 || index >= series.closes.length
    ? null
    : { time: series.times[index]!, close: series.closes[index]! };
}

/** The first index of the highest (or lowest) close. */
function extreme(closes: readonly number[], higher: boolean): number | undefined {
  if (closes.length === 0) return undefined;
  let found = 0;
  for (let i = 1; i < closes.length; i++) {
    if (higher ? closes[i]! > closes[found]! : closes[i]! < closes[found]!) found = i;
  }
  return found;
}

export function assetFigures(
  series: Closes,
  benchmark: Closes | undefined,
  interval: Interval,
): AssetFigures {
  const { closes } = series;
  const drawdown = maxDrawdown(closes);
  const [own, theirs] = benchmark ? alignedReturns(series, benchmark) : [[], []];
  return {
    id: series.id,
    symbol: series.symbol,
    name: series.name,
    points: closes.length,
    first: at(series, 0),
    last: at(series, closes.length - 1),
    return_pct: returnPct(closes),
    volatility_pct: volatilityPct(closes, interval),
    max_drawdown_pct: drawdown?.pct ?? null,
    drawdown_peak_time: drawdown ? series.times[drawdown.peak]! : null,
    drawdown_trough_time: drawdown ? series.times[drawdown.trough]! : null,
    highest_close: at(series, extreme(closes, true)),
    lowest_close: at(series, extreme(closes, false)),
    sma: { '20': sma(closes, 20), '50': sma(closes, 50), '200': sma(closes, 200) },
    ema: { '12': ema(closes, 12), '26': ema(closes, 26) },
    rsi_14: rsi(closes, 14),
    macd: macd(closes),
    bollinger_pct_b: bollingerPctB(closes),
    beta: beta(own, theirs),
    correlation: correlation(own, theirs),
  };
}

/** Pearson's correlation of every pair of assets, on the returns each pair shares in time. */
export function pairCorrelations(assets: readonly Closes[]): Correlation[] {
  const pairs: Correlation[] = [];
  for (let i = 0; i < assets.length; i++) {
    for (let j = i + 1; j < assets.length; j++) {
      const [a, b] = alignedReturns(assets[i]!, assets[j]!);
      pairs.push({ a: assets[i]!.symbol, b: assets[j]!.symbol, value: correlation(a, b) });
    }
  }
  return pairs;
}
