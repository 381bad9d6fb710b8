/**
 * analyze_assets' figures against values known from outside this code: StockCharts' worked tables
 * (the 10-day SMA and EMA; Wilder's 14-day RSI, whose published averages are rounded, so the exact
 * values are the ones other implementations agree on), and, for the rest, the definitions computed
 * again here with plain loops, not with the code or library under test.
 */
import { describe, expect, it } from 'vitest';
import {
  beta,
  bollingerPctB,
  correlation,
  ema,
  emaSeries,
  logReturns,
  macd,
  maxDrawdown,
  returnPct,
  rsi,
  sma,
  volatilityPct,
} from '../../src/analysis/figures.js';

/** StockCharts, "Moving Averages - Simple and Exponential": 30 closes and their 10-day averages. */
const MA_CLOSES = [
  22.27, 22.19, 22.08, 22.17, 22.18, 22.13, 22.23, 22.43, 22.24, 22.29, 22.15, 22.39, 22.38, 22.61, 23.36,
  24.05, 23.75, 23.83, 23.95, 23.63, 23.82, 23.87, 23.65, 23.19, 23.1, 23.33, 22.68, 23.1, 22.4, 22.17,
];
const SMA10 = [
  22.22, 22.21, 22.23, 22.26, 22.3, 22.42, 22.61, 22.77, 22.91, 23.08, 23.21, 23.38, 23.52, 23.65, 23.71,
  23.68, 23.61, 23.51, 23.43, 23.28, 23.13,
];
const EMA10 = [
  22.22, 22.21, 22.24, 22.27, 22.33, 22.52, 22.8, 22.97, 23.13, 23.28, 23.34, 23.43, 23.51, 23.53, 23.47,
  23.4, 23.39, 23.26, 23.23, 23.08, 22.92,
];

/** StockCharts, "Relative Strength Index (RSI)": the closes of its worked example. */
const RSI_CLOSES = [
  44.34, 44.09, 44.15, 43.61, 44.33, 44.83, 45.1, 45.42, 45.84, 46.08, 45.89, 46.03, 45.61, 46.28, 46.28,
  46.0, 46.03, 46.41, 46.22, 45.64,
];

/** A series with a rise, a fall, a new high and a deeper fall, for the figures checked by hand. */
const HAND = [100, 110, 99, 105, 120, 90, 95, 130, 117, 125];

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('moving averages (StockCharts)', () => {
  it('sma.n is the mean of the last n closes', () => {
    for (let k = 0; k < SMA10.length; k++) {
      // The table rounds half up to cents: 22.905 is printed 22.91.
      expect(Math.abs((sma(MA_CLOSES.slice(0, 10 + k), 10) as number) - SMA10[k]!)).toBeLessThan(0.006);
    }
    expect(sma(MA_CLOSES.slice(0, 9), 10)).toBeNull();
  });

  it('EMA n is seeded with the SMA of the first n closes, then α = 2/(n+1)', () => {
    const series = emaSeries(MA_CLOSES, 10);
    expect(series).toHaveLength(EMA10.length);
    for (const [k, value] of series.entries()) expect(Math.abs(value - EMA10[k]!)).toBeLessThan(0.006);
    expect(ema(MA_CLOSES, 10)).toBe(series.at(-1));
    expect(ema(MA_CLOSES.slice(0, 9), 10)).toBeNull();
  });
});

describe("Wilder's RSI (StockCharts' worked example)", () => {
  it('the first RSI from the means of the first 14 changes, then the smoothing', () => {
    expect(rsi(RSI_CLOSES.slice(0, 15))).toBeCloseTo(70.4641, 4);
    expect(rsi(RSI_CLOSES.slice(0, 16))).toBeCloseTo(66.2496, 4);
    expect(rsi(RSI_CLOSES)).toBeCloseTo(57.915, 3);
    expect(rsi(RSI_CLOSES.slice(0, 14))).toBeNull();
  });

  it('100 when no close fell; 0 when none rose', () => {
    expect(rsi(Array.from({ length: 20 }, (_, i) => 10 + i))).toBe(100);
    expect(rsi(Array.from({ length: 20 }, (_, i) => 30 - i))).toBe(0);
  });
});

describe('the rest, against the definitions computed here', () => {
  it('return, drawdown with its peak and trough, log returns', () => {
    expect(returnPct(HAND)).toBeCloseTo(25, 10);
    // From the running high of 120 (index 4) to 90 (index 5): -25%, deeper than 110 → 99 (-10%).
    expect(maxDrawdown(HAND)).toEqual({ pct: -25, peak: 4, trough: 5 });
    expect(maxDrawdown([1, 2, 3])).toEqual({ pct: 0, peak: 0, trough: 0 });
    expect(logReturns([100, 110, 99])).toEqual([Math.log(1.1), Math.log(0.9)]);
  });

  it('volatility: the sample deviation (n - 1) of the log returns, annualised', () => {
    const r = HAND.slice(1).map((c, i) => Math.log(c / HAND[i]!));
    const m = mean(r);
    const sample = Math.sqrt(r.reduce((s, x) => s + (x - m) ** 2, 0) / (r.length - 1));
    expect(volatilityPct(HAND, 'daily')).toBeCloseTo(sample * Math.sqrt(365) * 100, 10);
    expect(volatilityPct(HAND, 'hourly')).toBeCloseTo(sample * Math.sqrt(8760) * 100, 10);
    expect(volatilityPct([1, 2], 'daily')).toBeNull();
  });

  it('MACD: EMA12 - EMA26 from the 26th close, its EMA9 seeded with the mean of its first 9', () => {
    const closes = Array.from({ length: 60 }, (_, i) => 100 + 10 * Math.sin(i / 5) + i / 3);
    const emaOf = (values: number[], n: number) => {
      const out: (number | undefined)[] = Array(values.length).fill(undefined);
      out[n - 1] = mean(values.slice(0, n));
      for (let i = n; i < values.length; i++)
        out[i] = (2 / (n + 1)) * values[i]! + (1 - 2 / (n + 1)) * (out[i - 1] as number);
      return out;
    };
    const e12 = emaOf(closes, 12);
    const e26 = emaOf(closes, 26);
    const line = closes.slice(25).map((_, k) => (e12[25 + k] as number) - (e26[25 + k] as number));
    const signal = emaOf(line, 9).at(-1) as number;
    const result = macd(closes);
    expect(result?.line).toBeCloseTo(line.at(-1) as number, 10);
    expect(result?.signal).toBeCloseTo(signal, 10);
    expect(result?.histogram).toBeCloseTo((line.at(-1) as number) - signal, 10);
    expect(macd(closes.slice(0, 33))).toBeNull();
    expect(macd(closes.slice(0, 34))).not.toBeNull();
  });

  it('Bollinger %b (20, 2) with the population deviation of the last 20 closes', () => {
    const last20 = MA_CLOSES.slice(-20);
    const m = mean(last20);
    const sigma = Math.sqrt(last20.reduce((s, x) => s + (x - m) ** 2, 0) / 20);
    const expected = ((MA_CLOSES.at(-1) as number) - (m - 2 * sigma)) / (4 * sigma);
    expect(bollingerPctB(MA_CLOSES)).toBeCloseTo(expected, 10);
    expect(bollingerPctB(MA_CLOSES.slice(0, 19))).toBeNull();
    expect(bollingerPctB(Array(20).fill(5))).toBeNull();
  });

  it("Pearson's correlation and beta on aligned returns", () => {
    const a = [0.01, -0.02, 0.03, 0.005, -0.01, 0.02];
    const b = [0.012, -0.01, 0.025, 0.0, -0.015, 0.018];
    const ma = mean(a);
    const mb = mean(b);
    const cov = a.reduce((s, x, i) => s + (x - ma) * (b[i]! - mb), 0) / (a.length - 1);
    const varA = a.reduce((s, x) => s + (x - ma) ** 2, 0) / (a.length - 1);
    const varB = b.reduce((s, x) => s + (x - mb) ** 2, 0) / (b.length - 1);
    expect(correlation(a, b)).toBeCloseTo(cov / Math.sqrt(varA * varB), 12);
    expect(beta(a, b)).toBeCloseTo(cov / varB, 12);
    expect(correlation(a, a)).toBeCloseTo(1, 12);
    expect(correlation([0.1], [0.2])).toBeNull();
    expect(beta(a, Array(6).fill(0.01))).toBeNull();
  });
});
