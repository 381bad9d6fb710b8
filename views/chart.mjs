// @ts-check
/** One look for every chart: lightweight-charts with the page's colours, and a legend the crosshair fills. */
import { createChart } from 'lightweight-charts';

const DARK = window.matchMedia?.('(prefers-color-scheme: dark)').matches;
export const COLORS = {
  text: DARK ? '#d1d4dc' : '#191919',
  grid: DARK ? '#2a2e39' : '#eef0f3',
  up: '#26a69a',
  down: '#ef5350',
  line: '#2962ff',
  second: '#ff9800',
  third: '#9c27b0',
};

/** A chart in `element`, sized to it, with the TradingView attribution lightweight-charts shows. */
export function newChart(element, options = {}) {
  return createChart(element, {
    autoSize: true,
    layout: { background: { color: 'transparent' }, textColor: COLORS.text, attributionLogo: true },
    grid: { vertLines: { color: COLORS.grid }, horzLines: { color: COLORS.grid } },
    timeScale: { timeVisible: true, secondsVisible: false },
    localization: { priceFormatter: short },
    ...options,
  });
}

/** Fill the legend with the crosshair's values: `describe(seriesData)` → text; `fallback` when it leaves. */
export function legendOnCrosshair(chart, legend, describe, fallback) {
  legend.textContent = fallback;
  chart.subscribeCrosshairMove((param) => {
    legend.textContent = param.time === undefined ? fallback : describe(param.seriesData, param.time);
  });
}

/** "1.93T", "45.6K", "0.0712": short numbers for legends. */
export function short(value) {
  if (!Number.isFinite(value)) return 'n/a';
  const abs = Math.abs(value);
  for (const [size, suffix] of /** @type {[number, string][]} */ ([
    [1e12, 'T'],
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'K'],
  ])) {
    if (abs >= size) return `${(value / size).toFixed(2)}${suffix}`;
  }
  return abs >= 1 ? value.toFixed(2) : value.toPrecision(4);
}

/** "2026-11-22 14:00" from chart seconds. */
export function when(seconds) {
  return new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ');
}
