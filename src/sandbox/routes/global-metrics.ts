/** GET /v1/global-metrics/quotes/latest and /historical. */

import { type Currency, resolveConvert } from '../currencies.js';
import { closestQuote, type Period, requestedPeriods } from '../history.js';
import { type GlobalFigures, globalAt } from '../market/metrics.js';
import { floorTo, historyStart, iso, MINUTE } from '../market/time.js';
import type { globalMetrics as endpoints } from '../service/index.js';
import { GLOBAL_HISTORY_AUX } from '../service/market.js';
import { inSlices } from '../slices.js';
import { type HandlerOf, lastValueMemo } from './types.js';

type Figures = Record<string, number | string>;

function moneyFigures(g: GlobalFigures, c: Currency) {
  const rate = c.usdAt(g.t);
  return {
    total_market_cap: g.totalMarketCap / rate,
    total_volume_24h: g.totalVolume24h / rate,
    total_volume_24h_reported: g.totalVolume24hReported / rate,
    altcoin_volume_24h: g.altcoinVolume24h / rate,
    altcoin_volume_24h_reported: g.altcoinVolume24hReported / rate,
    altcoin_market_cap: g.altcoinMarketCap / rate,
  };
}

const latestMemo = lastValueMemo<string>();

export const globalMetricsLatest: HandlerOf<typeof endpoints.globalMetricsLatest> = {
  envelope: 'standard',
  handle({ params, now }) {
    // Latest figures are those of the current minute, the same instant the listings use.
    const t = floorTo(now, MINUTE);
    const currencies = resolveConvert(params);
    const key = `${t}:${currencies.map((c) => c.key).join(',')}`;
    const dataJson = latestMemo(key, () => {
      const g = globalAt(t);
      const quote: Record<string, Figures> = {};
      for (const c of currencies) quote[c.key] = { ...moneyFigures(g, c), last_updated: iso(t) };
      return JSON.stringify({
        btc_dominance: g.btcDominance,
        eth_dominance: g.ethDominance,
        active_cryptocurrencies: g.activeCryptocurrencies,
        total_cryptocurrencies: g.totalCryptocurrencies,
        active_market_pairs: g.activeMarketPairs,
        active_exchanges: g.activeExchanges,
        total_exchanges: g.totalExchanges,
        last_updated: iso(t),
        quote,
      });
    });
    return { dataJson, items: 1 };
  },
};

/** Every aux name but search_interval, which the spec leaves out by default. */
const DEFAULT_AUX = GLOBAL_HISTORY_AUX.filter((name) => name !== 'search_interval');
const RECORD_AUX = [
  'btc_dominance',
  'eth_dominance',
  'active_cryptocurrencies',
  'active_exchanges',
  'active_market_pairs',
];
const MONEY_AUX = [
  'total_volume_24h',
  'total_volume_24h_reported',
  'altcoin_market_cap',
  'altcoin_volume_24h',
  'altcoin_volume_24h_reported',
] as const;

function historicalRecord(period: Period, t: number, currencies: Currency[], aux: ReadonlySet<string>) {
  const g = globalAt(t);
  const all: Record<string, number> = {
    btc_dominance: g.btcDominance,
    eth_dominance: g.ethDominance,
    active_cryptocurrencies: g.activeCryptocurrencies,
    active_exchanges: g.activeExchanges,
    active_market_pairs: g.activeMarketPairs,
  };
  const record: Record<string, unknown> = { timestamp: iso(t) };
  for (const name of RECORD_AUX) if (aux.has(name)) record[name] = all[name];
  if (aux.has('search_interval')) {
    record.search_interval = {
      requested: iso(period.requested),
      time_start: iso(period.lo),
      time_end: iso(period.hi),
    };
  }
  const quote: Record<string, Figures> = {};
  for (const c of currencies) {
    const money = moneyFigures(g, c);
    const entry: Figures = { total_market_cap: money.total_market_cap };
    for (const name of MONEY_AUX) if (aux.has(name)) entry[name] = money[name];
    entry.timestamp = iso(t);
    quote[c.key] = entry;
  }
  record.quote = quote;
  return record;
}

export const globalMetricsHistorical: HandlerOf<typeof endpoints.globalMetricsHistorical> = {
  envelope: 'standard',
  handle({ params, now, plan }) {
    const periods = requestedPeriods(params, now, plan, 'global metrics history');
    const currencies = resolveConvert(params);
    const aux = new Set(typeof params.aux === 'string' ? params.aux.split(',') : DEFAULT_AUX);
    const first = historyStart(now);
    // Each record written as it is built: the whole is then joined, not written in one go.
    const recordJson = (period: Period) => {
      const t = closestQuote(period, first, now);
      return t === undefined ? undefined : JSON.stringify(historicalRecord(period, t, currencies, aux));
    };
    return inSlices(periods, recordJson, (records) => {
      const quotes = records.filter((record) => record !== undefined);
      return { dataJson: `{"quotes":[${quotes.join(',')}]}`, items: quotes.length };
    });
  },
};
