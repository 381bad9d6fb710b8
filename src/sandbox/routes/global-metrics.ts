/** GET /v1/global-metrics/quotes/latest and /historical. */
import { planTitle } from '../../catalog/define.js';
import { GLOBAL_HISTORY_AUX } from '../../catalog/global-metrics.js';
import { parseTime } from '../../catalog/params.js';
import { describeDepth, HISTORY_MONTHS } from '../accounts.js';
import { type Currency, resolveConvert } from '../currencies.js';
import { ApiError } from '../envelope.js';
import { closestQuote, earliestReach, type Period, periodsFor } from '../history.js';
import { type GlobalFigures, globalAt } from '../market/metrics.js';
import { floorTo, historyStart, iso, MINUTE, monthsBefore } from '../market/time.js';
import { type Handler, lastValueMemo } from './types.js';

type Figures = Record<string, number | string>;

function moneyFigures(g: GlobalFigures, c: Currency): Record<string, number> {
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

export const globalMetricsLatest: Handler = {
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
];

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

/** 403 when the request reaches further back than the plan's history (Enterprise: all the data). */
function checkDepth(plan: keyof typeof HISTORY_MONTHS, now: number, periods: readonly Period[]): void {
  if (plan === 'enterprise' || periods.length === 0) return;
  const months = HISTORY_MONTHS[plan];
  const limit = monthsBefore(now, months);
  const reach = earliestReach(periods);
  if (reach >= limit) return;
  throw new ApiError(
    403,
    1006,
    `Your plan (${planTitle(plan)}) includes ${describeDepth(months)} of global metrics history, back to ${iso(limit)}; this request reaches back to ${iso(reach)}. Use a later time_start or a smaller count, or a plan with more history: Standard 3 months, Professional 12 months, Enterprise 6 years.`,
  );
}

export const globalMetricsHistorical: Handler = {
  envelope: 'standard',
  handle({ params, now, plan }) {
    const p = params as {
      time_start?: string | number;
      time_end?: string | number;
      count: number;
      interval: string;
    };
    const end = p.time_end === undefined ? now : (parseTime(p.time_end) as number);
    const start = p.time_start === undefined ? undefined : parseTime(p.time_start);
    const periods = periodsFor({ start, end, count: p.count, interval: p.interval });
    checkDepth(plan, now, periods);
    const currencies = resolveConvert(params);
    const aux = new Set(typeof params.aux === 'string' ? params.aux.split(',') : DEFAULT_AUX);
    const first = historyStart(now);
    const quotes: unknown[] = [];
    for (const period of periods) {
      const t = closestQuote(period, first, now);
      if (t !== undefined) quotes.push(historicalRecord(period, t, currencies, aux));
    }
    return {
      dataJson: JSON.stringify({ quotes }),
      items: quotes.length,
    };
  },
};
