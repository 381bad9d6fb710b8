/** Price conversion and the fiat map. */

import { checkDepth } from '../accounts.js';
import { type Currency, findCurrency, resolveConvert } from '../currencies.js';
import { badRequest } from '../envelope.js';
import { FIATS, METALS } from '../market/fiat.js';
import { floorTo, historyStart, iso, MINUTE } from '../market/time.js';
import type { utilities as endpoints } from '../service/index.js';
import type { Plan } from '../service/plans.js';
import type { HandlerOf } from './types.js';

/** The instant a conversion is priced at: latest, or `time` within the plan's history. */
function conversionTime(t: number | undefined, now: number, plan: Plan): number {
  if (t === undefined) return floorTo(now, MINUTE);
  if (t > now) throw badRequest('Invalid value for "time": must not be in the future.');
  if (t < historyStart(now)) {
    throw badRequest(`Invalid value for "time": the sandbox's history starts ${iso(historyStart(now))}.`);
  }
  checkDepth(plan, now, t, { what: 'conversion rates history', advice: 'Ask for a later "time"' });
  return floorTo(t, MINUTE);
}

/** §9: an amount of one currency (crypto or fiat) in others. With `symbol`, data is a list. */
export const priceConversion: HandlerOf<typeof endpoints.priceConversion> = {
  envelope: 'standard',
  handle({ params, now, plan }) {
    const p = params;
    // The schema takes exactly one of id and symbol.
    const from: Currency | undefined =
      p.id !== undefined ? findCurrency('id', p.id) : findCurrency('symbol', p.symbol ?? '');
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
export const fiatMap: HandlerOf<typeof endpoints.fiatMap> = {
  envelope: 'standard',
  handle({ params }) {
    const p = params;
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
