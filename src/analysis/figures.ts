/**
 * The figures analyze_assets computes from closes, oldest first, each by the definition its
 * description states (docs/analysis.md): unrounded, and null where the series is too short for
 * the figure (or, for a ratio, where its divisor is zero). simple-statistics computes the means,
 * deviations and covariances; the indicators' recurrences are written out here.
 */
import {
  mean,
  sampleCorrelation,
  sampleCovariance,
  sampleStandardDeviation,
  sampleVariance,
  standardDeviation,
} from 'simple-statistics';

export type Interval = 'daily' | 'hourly';

/** Periods in a year: volatility is annualised by the square root of this. */
export const PERIODS_PER_YEAR: Readonly<Record<Interval, number>> = { daily: 365, hourly: 8760 };

/** A finite number, or null: a figure that cannot be computed is null, never NaN or Infinity. */
function finite(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}

/** r_i = ln(c_i / c_(i-1)). */
export function logReturns(closes: readonly number[]): number[] {
  return closes.slice(1).map((close, i) => Math.log(close / closes[i]!));
}

/** (c_last / c_first - 1) × 100. */
export function returnPct(closes: readonly number[]): number | null {
  return closes.length < 2 ? null : finite((closes[closes.length - 1]! / closes[0]! - 1) * 100);
}

/** Sample standard deviation (n − 1) of the log returns, annualised, × 100. */
export function volatilityPct(closes: readonly number[], interval: Interval): number | null {
  const returns = logReturns(closes);
  if (returns.length < 2) return null;
  return finite(sampleStandardDeviation(returns) * Math.sqrt(PERIODS_PER_YEAR[interval]) * 100);
}

export interface Drawdown {
  /** min over i of (c_i / max_(j≤i) c_j − 1) × 100: 0 or negative. */
  pct: number;
  /** Where the running maximum of the deepest drawdown was set, and where the drawdown was deepest. */
  peak: number;
  trough: number;
}

/** The deepest fall from a running maximum; the first such trough when several are as deep. */
export function maxDrawdown(closes: readonly number[]): Drawdown | null {
  if (closes.length === 0) return null;
  let peak = 0;
  let deepest: Drawdown = { pct: 0, peak: 0, trough: 0 };
  for (let i = 0; i < closes.length; i++) {
    if (closes[i]! > closes[peak]!) peak = i;
    const pct = (closes[i]! / closes[peak]! - 1) * 100;
    if (pct < deepest.pct) deepest = { pct, peak, trough: i };
  }
  return deepest;
}

/** The mean of the last n closes. */
export function sma(closes: readonly number[], n: number): number | null {
  return closes.length < n ? null : mean(closes.slice(-n));
}

/**
 * EMA n over `values`: α = 2/(n+1), seeded with the mean of the first n values. The series starts
 * at the n-th value (index n − 1); empty with fewer than n values.
 */
export function emaSeries(values: readonly number[], n: number): number[] {
  if (values.length < n) return [];
  const alpha = 2 / (n + 1);
  const series = [mean(values.slice(0, n))];
  for (let i = n; i < values.length; i++)
    series.push(alpha * values[i]! + (1 - alpha) * series[series.length - 1]!);
  return series;
}

export function ema(closes: readonly number[], n: number): number | null {
  return emaSeries(closes, n).at(-1) ?? null;
}

/** Closes MACD needs: EMA26 from the 26th close, then 9 of its line to seed the signal. */
export const MACD_CLOSES = 34;

export interface Macd {
  line: number;
  signal: number;
  histogram: number;
}

/**
 * line = EMA12 − EMA26 from the 26th close on; signal = EMA9 of the line, seeded with the mean of
 * its first 9 values; histogram = line − signal; the last values.
 */
export function macd(closes: readonly number[]): Macd | null {
  if (closes.length < MACD_CLOSES) return null;
  const slow = emaSeries(closes, 26);
  // EMA12 starts at the 12th close, EMA26 at the 26th: align them on the 26th.
  const fast = emaSeries(closes, 12).slice(25 - 11);
  const line = slow.map((s, i) => fast[i]! - s);
  const signal = emaSeries(line, 9).at(-1) as number;
  const last = line[line.length - 1]!;
  return { line: last, signal, histogram: last - signal };
}

/**
 * Wilder's RSI n: the first average gain and loss are the means of the first n changes, then
 * avg = (avg × (n − 1) + current) / n; RSI = 100 − 100 / (1 + gain/loss), 100 when the loss is 0.
 */
export function rsi(closes: readonly number[], n = 14): number | null {
  if (closes.length < n + 1) return null;
  const changes = closes.slice(1).map((close, i) => close - closes[i]!);
  let gain = mean(changes.slice(0, n).map((d) => Math.max(d, 0)));
  let loss = mean(changes.slice(0, n).map((d) => Math.max(-d, 0)));
  for (const d of changes.slice(n)) {
    gain = (gain * (n - 1) + Math.max(d, 0)) / n;
    loss = (loss * (n - 1) + Math.max(-d, 0)) / n;
  }
  return loss === 0 ? 100 : 100 - 100 / (1 + gain / loss);
}

/** %b (20, 2): (c_last − (SMA20 − 2σ)) / 4σ, σ the population standard deviation of the last 20 closes. */
export function bollingerPctB(closes: readonly number[]): number | null {
  if (closes.length < 20) return null;
  const last20 = closes.slice(-20);
  const sigma = standardDeviation(last20);
  if (sigma === 0) return null;
  return finite((closes[closes.length - 1]! - (mean(last20) - 2 * sigma)) / (4 * sigma));
}

/** Pearson's correlation of two aligned return series; null with fewer than 2 pairs or a flat one. */
export function correlation(a: readonly number[], b: readonly number[]): number | null {
  if (a.length < 2) return null;
  return finite(sampleCorrelation(a as number[], b as number[]));
}

/** cov(r_asset, r_benchmark) / var(r_benchmark) over aligned returns; null with fewer than 2 pairs or a flat benchmark. */
export function beta(asset: readonly number[], benchmark: readonly number[]): number | null {
  if (asset.length < 2) return null;
  const variance = sampleVariance(benchmark as number[]);
  return variance === 0
    ? null
    : finite(sampleCovariance(asset as number[], benchmark as number[]) / variance);
}
