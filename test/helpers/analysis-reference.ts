/**
 * analyze_assets' figures computed again from candles, by their stated definitions, with plain
 * loops: an implementation of the tests' own, sharing no code with src/analysis, to check the
 * server's figures against.
 */

export interface Series {
  times: string[];
  closes: number[];
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

function sampleVariance(xs: readonly number[]): number {
  const m = mean(xs);
  return xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1);
}

function sampleCovariance(xs: readonly number[], ys: readonly number[]): number {
  const mx = mean(xs);
  const my = mean(ys);
  return xs.reduce((s, x, i) => s + (x - mx) * (ys[i]! - my), 0) / (xs.length - 1);
}

function emaValues(values: readonly number[], n: number): number[] {
  const out = [mean(values.slice(0, n))];
  for (let i = n; i < values.length; i++)
    out.push((values[i]! - out[out.length - 1]!) * (2 / (n + 1)) + out[out.length - 1]!);
  return out;
}

function returnsByTime(s: Series): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 1; i < s.closes.length; i++) out.set(s.times[i]!, Math.log(s.closes[i]! / s.closes[i - 1]!));
  return out;
}

export function aligned(a: Series, b: Series): [number[], number[]] {
  const rb = returnsByTime(b);
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [t, r] of returnsByTime(a)) {
    if (!rb.has(t)) continue;
    xs.push(r);
    ys.push(rb.get(t) as number);
  }
  return [xs, ys];
}

export function pearson(xs: readonly number[], ys: readonly number[]): number | null {
  if (xs.length < 2) return null;
  const value = sampleCovariance(xs, ys) / Math.sqrt(sampleVariance(xs) * sampleVariance(ys));
  return Number.isFinite(value) ? value : null;
}

/** Every figure of one asset, by the definitions in the tool's description. */
export function referenceFigures(s: Series, benchmark: Series, periodsPerYear: number) {
  const c = s.closes;
  const n = c.length;
  const r = c.slice(1).map((x, i) => Math.log(x / c[i]!));
  let runningMax = c[0]!;
  let peakAt = 0;
  let drawdown = { pct: 0, peak: 0, trough: 0 };
  c.forEach((x, i) => {
    if (x > runningMax) {
      runningMax = x;
      peakAt = i;
    }
    const pct = (x / runningMax - 1) * 100;
    if (pct < drawdown.pct) drawdown = { pct, peak: peakAt, trough: i };
  });
  const smaOf = (k: number) => (n < k ? null : mean(c.slice(-k)));
  const emaOf = (k: number) => (n < k ? null : (emaValues(c, k).at(-1) as number));
  const changes = c.slice(1).map((x, i) => x - c[i]!);
  let rsi: number | null = null;
  if (n >= 15) {
    let gain = mean(changes.slice(0, 14).map((d) => (d > 0 ? d : 0)));
    let loss = mean(changes.slice(0, 14).map((d) => (d < 0 ? -d : 0)));
    for (const d of changes.slice(14)) {
      gain = (gain * 13 + (d > 0 ? d : 0)) / 14;
      loss = (loss * 13 + (d < 0 ? -d : 0)) / 14;
    }
    rsi = loss === 0 ? 100 : 100 - 100 / (1 + gain / loss);
  }
  let macd: { line: number; signal: number; histogram: number } | null = null;
  if (n >= 34) {
    const e12 = emaValues(c, 12); // e12[k] is at close 11 + k
    const e26 = emaValues(c, 26); // e26[k] is at close 25 + k
    const line = e26.map((slow, k) => e12[k + 14]! - slow);
    const signal = emaValues(line, 9).at(-1) as number;
    macd = { line: line.at(-1) as number, signal, histogram: (line.at(-1) as number) - signal };
  }
  let pctB: number | null = null;
  if (n >= 20) {
    const w = c.slice(-20);
    const m = mean(w);
    const sigma = Math.sqrt(w.reduce((acc, x) => acc + (x - m) ** 2, 0) / 20);
    pctB = sigma === 0 ? null : (c[n - 1]! - (m - 2 * sigma)) / (4 * sigma);
  }
  const [own, theirs] = aligned(s, benchmark);
  return {
    points: n,
    return_pct: (c[n - 1]! / c[0]! - 1) * 100,
    volatility_pct: Math.sqrt(sampleVariance(r)) * Math.sqrt(periodsPerYear) * 100,
    max_drawdown_pct: drawdown.pct,
    drawdown_peak_time: s.times[drawdown.peak],
    drawdown_trough_time: s.times[drawdown.trough],
    highest_close: Math.max(...c),
    lowest_close: Math.min(...c),
    sma: { '20': smaOf(20), '50': smaOf(50), '200': smaOf(200) },
    ema: { '12': emaOf(12), '26': emaOf(26) },
    rsi_14: rsi,
    macd,
    bollinger_pct_b: pctB,
    beta: own.length < 2 ? null : sampleCovariance(own, theirs) / sampleVariance(theirs),
    correlation: pearson(own, theirs),
  };
}
