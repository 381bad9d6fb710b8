/**
 * What analyze_assets' figures are, one definition a figure: given with every answer (its
 * structured data's `definitions`) and as the resource svc://analysis/definitions, where a model
 * reads them when it reads an answer, not in every tool list (docs/decisions/009).
 */

export const DEFINITIONS_URI = 'svc://analysis/definitions';

export const ANALYSIS_DEFINITIONS: Readonly<Record<string, string>> = {
  closes: 'Closes c oldest first (complete candles only); r_i = ln(c_i/c_(i-1)).',
  return_pct: 'return_pct = (c_last/c_first - 1)×100.',
  volatility_pct: 'volatility_pct = sample stdev (n-1) of r × √365 (daily) or √8760 (hourly) × 100.',
  max_drawdown_pct:
    'max_drawdown_pct = min over i of (c_i/max_(j≤i) c_j - 1)×100, with peak and trough times.',
  sma: 'sma.n = mean of the last n closes; null with fewer.',
  ema: 'EMA n: α = 2/(n+1), seeded with the SMA of the first n closes.',
  macd: 'MACD: line = EMA12 - EMA26 from the 26th close; signal = EMA9 of the line seeded with the mean of its first 9; histogram = line - signal; null under 34 closes.',
  rsi_14:
    "rsi_14: Wilder's; first averages = means of the first 14 changes, then avg = (avg×13 + x)/14; 100 when the loss is 0.",
  bollinger_pct_b:
    'bollinger_pct_b (20, 2) = (c_last - (SMA20 - 2σ))/(4σ), σ the population stdev of the last 20 closes.',
  correlation:
    "correlation: Pearson's on log returns at the times both series have; beta = cov(r, r_bench)/var(r_bench) on the same times.",
};

/** The definitions as the resource gives them: one line a figure. */
export function definitionsText(): string {
  return [
    '# analyze_assets: what each figure is',
    ...Object.values(ANALYSIS_DEFINITIONS).map((d) => `- ${d}`),
  ].join('\n');
}
