/** Key info, price conversion and the fiat map. */
import { planTitle } from '../../catalog/define.js';
import { parseTime } from '../../catalog/params.js';
import { describeDepth, HISTORY_MONTHS, REQUESTS_PER_MINUTE } from '../accounts.js';
import { type Currency, findCurrency, resolveConvert } from '../currencies.js';
import { ApiError, badRequest } from '../envelope.js';
import { FIATS, METALS } from '../market/fiat.js';
import { floorTo, historyStart, iso, MINUTE, monthsBefore } from '../market/time.js';
import type { Handler } from './types.js';

function untilText(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3_600);
  const minutes = Math.floor((seconds % 3_600) / 60);
  const unit = (n: number, name: string) => `${n} ${name}${n === 1 ? '' : 's'}`;
  return `In ${unit(days, 'day')}, ${unit(hours, 'hour')}, ${unit(minutes, 'minute')}`;
}

/** §8: plan limits and live usage; costs nothing but counts toward the minute limit. */
export const keyInfo: Handler = {
  envelope: 'standard',
  handle({ now, plan, key, ledger, windows }) {
    const usage = ledger.snapshot(key, plan, windows);
    const d = new Date(now * 1000);
    const nextMonth = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000;
    const data = {
      plan: {
        credit_limit_monthly: ledger.monthlyLimit(plan),
        credit_limit_monthly_reset: untilText(nextMonth - now),
        credit_limit_monthly_reset_timestamp: iso(nextMonth),
        rate_limit_minute: REQUESTS_PER_MINUTE[plan],
      },
      usage: {
        current_minute: { requests_made: usage.requestsMade, requests_left: usage.requestsLeft },
        // No separate daily cap: what is left today is what is left of the month.
        current_day: { credits_used: usage.dayCredits, credits_left: usage.monthLeft },
        current_month: { credits_used: usage.monthCredits, credits_left: usage.monthLeft },
      },
    };
    return { dataJson: JSON.stringify(data), items: 1 };
  },
};

/** The instant a conversion is priced at: latest, or `time` within the plan's history depth. */
function conversionTime(
  time: string | number | undefined,
  now: number,
  plan: keyof typeof HISTORY_MONTHS,
): number {
  if (time === undefined) return floorTo(now, MINUTE);
  const t = parseTime(time) as number;
  if (t > now) throw badRequest('Invalid value for "time": must not be in the future.');
  if (plan === 'basic') {
    throw new ApiError(
      403,
      1006,
      'Your plan (Basic) converts at the latest rates only; historical conversion with "time" needs Hobbyist or above.',
    );
  }
  const months = HISTORY_MONTHS[plan];
  const limit = Math.max(monthsBefore(now, months), historyStart(now));
  if (t < limit) {
    throw new ApiError(
      403,
      1006,
      `Your plan (${planTitle(plan)}) converts at rates up to ${describeDepth(months)} back, to ${iso(limit)}; "time" asks for ${iso(t)}.`,
    );
  }
  return floorTo(t, MINUTE);
}

/** §9: an amount of one currency (crypto or fiat) in others. With `symbol`, data is a list. */
export const priceConversion: Handler = {
  envelope: 'standard',
  handle({ params, now, plan }) {
    const p = params as { amount: number; id?: string; symbol?: string; time?: string | number };
    const from: Currency | undefined =
      p.id !== undefined ? findCurrency('id', p.id) : findCurrency('symbol', p.symbol as string);
    if (!from) {
      const name = p.id !== undefined ? 'id' : 'symbol';
      throw badRequest(
        `Invalid value for "${name}": "${p.id ?? p.symbol}" is not a known cryptocurrency or fiat currency.`,
      );
    }
    const t = conversionTime(p.time, now, plan);
    const currencies = resolveConvert(params);
    const usd = p.amount * from.usdAt(t);
    const quote: Record<string, { price: number; last_updated: string }> = {};
    for (const c of currencies) quote[c.key] = { price: usd / c.usdAt(t), last_updated: iso(t) };
    const item = {
      id: from.id,
      symbol: from.symbol,
      name: from.name,
      amount: p.amount,
      last_updated: iso(t),
      quote,
    };
    return { dataJson: JSON.stringify(p.symbol !== undefined ? [item] : item), items: 1 };
  },
};

/** §7: fiat currencies (and with include_metals the four precious metals), by id or name. */
export const fiatMap: Handler = {
  envelope: 'standard',
  handle({ params }) {
    const p = params as { start: number; limit?: number; sort?: 'id' | 'name'; include_metals?: boolean };
    const all = [...FIATS, ...(p.include_metals ? METALS : [])].map(({ id, name, sign, symbol }) => ({
      id,
      name,
      sign,
      symbol,
    }));
    all.sort((a, b) => (p.sort === 'name' ? a.name.localeCompare(b.name) : a.id - b.id));
    const page = all.slice(p.start - 1, p.limit === undefined ? undefined : p.start - 1 + p.limit);
    return { dataJson: JSON.stringify(page), items: page.length };
  },
};
