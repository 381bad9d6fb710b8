/** Utilities: price conversion between any two currencies, and the fiat currency map. */
import { z } from 'zod';
import { currencyLabel } from '../currency-ids.js';
import { formatNumber, formatPrice } from '../format/numbers.js';
import { counted, formatTime, lines, table } from '../format/text.js';
import { perCall } from '../kit/credits.js';
import { dataOf, defineEndpoint } from '../kit/define.js';
import { lenient } from '../kit/lenient.js';
import { offsetPages } from '../kit/pages.js';
import { convertExclusive, enumParam, intParam, paramsObject } from '../kit/params.js';
import { ALL_PLANS } from '../kit/plans.js';
import { quoteEntry, quoteOf } from '../kit/quotes.js';
import { recordsOf } from '../kit/shapes.js';
import { currencyParams, exactlyOne, oneId, oneSymbol, timeBoundParam } from './asset-params.js';

const conversionQuote = quoteEntry(['price']).extend({ last_updated: z.string().optional() });
const conversion = z.object({
  id: z.number(),
  symbol: z.string(),
  name: z.string(),
  amount: z.number(),
  last_updated: z.string().optional(),
  quote: z.array(conversionQuote).describe('One entry per currency'),
});
const upstreamConversion = lenient(conversion, { quote: quoteOf(conversionQuote) });

export const priceConversion = defineEndpoint({
  name: 'convert_price',
  title: 'Price conversion',
  toolset: 'utilities',
  inDefault: true,
  path: '/v2/tools/price-conversion',
  summary:
    'Convert an amount between coins and fiat: 2 ETH in dollars, or what 10 BTC were worth in yen at a past date (Hobbyist+).',
  input: paramsObject(
    {
      amount: z.number().min(1e-8).max(1e12).describe('Amount to convert.'),
      id: oneId.describe('From (crypto or fiat), by id, e.g. 1.'),
      symbol: oneSymbol.describe('Or a symbol, e.g. BTC.'),
      time: timeBoundParam('A past time, default now'),
      ...currencyParams(),
    },
    convertExclusive,
    exactlyOne('id', 'symbol'),
  ),
  // With symbol, the service answers a list: a symbol may name several assets.
  output: z.object({ items: z.array(conversion) }),
  credits: perCall(1, { convert: true }),
  refreshSeconds: 60,
  plans: ALL_PLANS,
  normalise(body) {
    return { items: recordsOf(upstreamConversion, dataOf(body)) };
  },
  summarise(data) {
    if (data.items.length === 0) return 'No conversion: the currency asked for is not known.';
    return lines(
      ...data.items.map(
        (c) =>
          `${formatNumber(c.amount, 8)} ${c.symbol} (${c.name}, id ${c.id}) = ${c.quote
            .map((q) => formatPrice(q.price, q.currency))
            .join(' = ')} (${formatTime(c.last_updated)})`,
      ),
      data.items.length > 1 && `${data.items.length} assets share that symbol; send id to pick one.`,
    );
  },
});

/** The precious metals' ids, as the fiat map (include_metals) and convert_id know them. */
const METAL_IDS = { XAU: 3575, XAG: 3574, XPT: 3577, XPD: 3576 } as const;
const METALS = Object.entries(METAL_IDS)
  .map(([symbol, id]) => `${symbol} ${id}`)
  .join(', ');
const fiat = z.object({ id: z.number(), name: z.string(), sign: z.string().optional(), symbol: z.string() });
const upstreamFiat = lenient(fiat);

export const fiatMap = defineEndpoint({
  name: 'get_fiat_map',
  rowName: 'currency',
  title: 'Fiat currency map',
  toolset: 'utilities',
  path: '/v1/fiat/map',
  summary: 'Fiat currencies (and precious metals) with the ids convert_id takes.',
  input: paramsObject({
    start: intParam(1, undefined, 'Offset.').default(1),
    limit: intParam(1, 5000, 'Currencies; default all.').optional(),
    sort: enumParam(['id', 'name'], 'Default id.').optional(),
    include_metals: z.boolean().optional().describe(`Add metals (${METALS}); default false.`),
  }),
  output: z.object({ items: z.array(fiat) }),
  credits: perCall(1),
  pages: offsetPages({ fixed: 90, perCurrency: 0 }),
  refreshSeconds: 30,
  plans: ALL_PLANS,
  normalise(body) {
    return { items: recordsOf(upstreamFiat, dataOf(body)) };
  },
  summarise(data) {
    return lines(
      `${counted(data.items.length, 'currency')}; convert_id takes the id:`,
      table(
        ['Symbol', 'Name', 'Sign', 'Id'],
        data.items.map((f) => [currencyLabel(f.symbol), f.name, f.sign ?? '', String(f.id)]),
      ),
    );
  },
});
