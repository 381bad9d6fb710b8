/**
 * analyze_assets' text: a headline for the first asset, a table of every asset's main figures, the
 * correlation matrix when there are several, and a line saying what the figures were computed
 * from and which could not be for want of closes. Rounded for reading (the data is not); about
 * 2,000 characters for ten assets.
 */

import { formatPercent, formatWhole } from '../format/numbers.js';
import { lines, table } from '../format/text.js';
import { DEFINITIONS_URI } from './analysis-definitions.js';
import type { Analysis } from './analysis-output.js';

type AssetFigures = Analysis['assets'][number];

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "12 Sep", or "12 Sep 14:00" for hourly candles. */
function shortTime(iso: string | null | undefined, hourly: boolean): string {
  if (!iso) return 'n/a';
  const d = new Date(iso);
  const day = `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
  return hourly ? `${day} ${iso.slice(11, 16)}` : day;
}

/** A percent to the whole one, or under 1% to two decimals: a stablecoin's figures are not all "0%". */
const percent = (value: number | null) =>
  value === null ? 'n/a' : `${Math.abs(value) < 1 && value !== 0 ? value.toFixed(2) : Math.round(value)}%`;
const ratio = (value: number | null) => (value === null ? 'n/a' : value.toFixed(2));

/** "ETH -12.4% over 90 days, volatility 58%, max drawdown -31% (12 Sep → 3 Oct)". */
function headline(a: AssetFigures, span: string, hourly: boolean): string {
  if (a.points < 2)
    return `${a.symbol}: ${a.points === 0 ? 'no' : 'one'} complete candle ${span}; no figures.`;
  const drawdown =
    a.max_drawdown_pct === null || a.max_drawdown_pct === 0
      ? 'no drawdown'
      : `max drawdown ${percent(a.max_drawdown_pct)} (${shortTime(a.drawdown_peak_time, hourly)} → ${shortTime(a.drawdown_trough_time, hourly)})`;
  return `${a.symbol} ${formatPercent(a.return_pct)} ${span}, volatility ${percent(a.volatility_pct)}, ${drawdown}`;
}

function figuresTable(assets: readonly AssetFigures[], benchmark: string): string {
  return table(
    ['Asset', 'Return', 'Volatility', 'Drawdown', 'RSI', 'vs SMA50', `Corr ${benchmark}`, 'Beta'],
    assets.map((a) => [
      a.symbol,
      formatPercent(a.return_pct),
      percent(a.volatility_pct),
      percent(a.max_drawdown_pct),
      a.rsi_14 === null ? 'n/a' : String(Math.round(a.rsi_14)),
      a.sma['50'] === null || a.last === null ? 'n/a' : formatPercent((a.last.close / a.sma['50'] - 1) * 100),
      ratio(a.correlation),
      ratio(a.beta),
    ]),
  );
}

function correlationMatrix(data: Analysis): string | undefined {
  if (data.assets.length < 2) return undefined;
  const symbols = data.assets.map((a) => a.symbol);
  const value = (a: string, b: string) =>
    a === b
      ? '1'
      : ratio(
          data.correlations.find((c) => (c.a === a && c.b === b) || (c.a === b && c.b === a))?.value ?? null,
        );
  return table(
    ['Correlation', ...symbols],
    symbols.map((a) => [a, ...symbols.map((b) => value(a, b))]),
  );
}

/** The closes each figure needs, for saying which could not be computed. */
const NEEDS = [
  ['SMA200', 200],
  ['SMA50', 50],
  ['MACD', 34],
  ['SMA20 and Bollinger %b', 20],
  ['RSI', 15],
] as const;

function shortOf(assets: readonly AssetFigures[]): string | undefined {
  const fewest = Math.min(...assets.map((a) => a.points));
  const missing = NEEDS.filter(([, needs]) => fewest < needs).map(
    ([what, needs], i) => `${what} (${i === 0 ? 'needs ' : ''}${needs})`,
  );
  if (missing.length === 0) return undefined;
  const them = missing.length === 1 ? 'it' : 'them';
  return `Too few closes (${fewest} an asset) for ${missing.join(', ')}: not computed (n/a, null in json); a longer window gives ${them}.`;
}

export function summariseAnalysis(data: Analysis, params: { days?: number; time_start?: unknown }): string {
  const hourly = data.interval === 'hourly';
  const lead = data.assets[0];
  if (!lead) return 'No candles: none of the assets asked for has any in this window.';
  const span =
    params.time_start === undefined
      ? `over ${params.days ?? 90} days`
      : `from ${lead.first?.time.slice(0, 10) ?? 'n/a'} to ${lead.last?.time.slice(0, 10) ?? 'n/a'}`;
  const points = data.assets.map((a) => a.points);
  const [fewest, most] = [Math.min(...points), Math.max(...points)];
  const counts = fewest === most ? formatWhole(most) : `${formatWhole(fewest)} to ${formatWhole(most)}`;
  return lines(
    headline(lead, span, hourly),
    figuresTable(data.assets, data.benchmark.symbol),
    correlationMatrix(data),
    `${hourly ? 'Hourly' : 'Daily'} closes in ${data.convert}, ${counts} complete candles an asset; against ${data.benchmark.symbol}.`,
    shortOf(data.assets),
    `What each figure is: ${DEFINITIONS_URI}, or the json answer's definitions.`,
  );
}
