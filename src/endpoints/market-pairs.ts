/** Where an asset trades: its market pairs across exchanges, with price and volume. */
import { z } from 'zod';
import { formatMoney, formatNumber, formatPrice } from '../format/numbers.js';
import { lines, table } from '../format/text.js';
import { perItems } from '../kit/credits.js';
import { dataOf, defineEndpoint, parseBody } from '../kit/define.js';
import { lenient } from '../kit/lenient.js';
import { offsetPages } from '../kit/pages.js';
import {
  convertExclusive,
  enumParam,
  idListParam,
  namesListParam,
  notTogether,
  paramsObject,
  symbolListParam,
} from '../kit/params.js';
import { plansFrom } from '../kit/plans.js';
import { quoteEntry, quoteOf } from '../kit/quotes.js';
import { clip } from '../messages.js';
import {
  currencyParams,
  exactlyOne,
  oneId,
  oneSlug,
  oneSymbol,
  pageParams,
  servicePage,
} from './asset-params.js';

const SORTS = [
  'volume_24h_strict',
  'svc_rank',
  'svc_rank_advanced',
  'effective_liquidity',
  'market_score',
  'market_reputation',
] as const;
const pairQuote = quoteEntry(['price', 'volume_24h']);
const pair = z.object({
  exchange: z.string(),
  exchange_id: z.number().optional(),
  market_pair: z.string(),
  category: z.string().optional(),
  fee_type: z.string().optional(),
  base_currency_id: z.number().optional(),
  quote_currency_id: z.number().optional(),
  quote: z.array(pairQuote).describe('Price and 24h volume per currency'),
});

/**
 * The service nests the exchange and the two sides, and mixes the exchange's own figures
 * (`exchange_reported`, in the pair's quote currency) into `quote`: the answer keeps the requested
 * currencies.
 */
const upstreamPair = lenient(pair, {
  exchange: 'exchange.name',
  exchange_id: 'exchange.id',
  base_currency_id: 'market_pair_base.currency_id',
  quote_currency_id: 'market_pair_quote.currency_id',
  quote: z
    .record(z.string(), z.unknown())
    .transform((q): unknown =>
      Object.fromEntries(Object.entries(q).filter(([key]) => key !== 'exchange_reported')),
    )
    .pipe(quoteOf(pairQuote)),
});

const pairsOutput = z.object({
  id: z.number(),
  name: z.string(),
  symbol: z.string(),
  num_market_pairs: z
    .number()
    .optional()
    .describe('All pairs (filtered by matched_id/matched_symbol if given)'),
  start: z.number(),
  market_pairs: z.array(pair),
});
const upstreamPairs = lenient(pairsOutput.omit({ start: true }), { market_pairs: z.array(upstreamPair) });

const AUX = [
  'num_market_pairs',
  'category',
  'fee_type',
  'market_url',
  'currency_name',
  'currency_slug',
  'price_quote',
  'notice',
  'svc_rank',
  'effective_liquidity',
  'market_score',
  'market_reputation',
] as const;

/** Which pairs were asked for, as the text says it: " in derivatives against USDT". */
function pairsFilter(params: {
  category?: string;
  fee_type?: string;
  matched_id?: string;
  matched_symbol?: string;
}): string {
  const { category, fee_type, matched_id, matched_symbol } = params;
  const against = matched_symbol ?? (matched_id === undefined ? undefined : `id ${matched_id}`);
  return [
    category !== undefined && category !== 'all' ? ` in ${category}` : '',
    against === undefined ? '' : ` against ${clip(against, 100)}`,
    fee_type !== undefined && fee_type !== 'all' ? ` with fee type ${fee_type}` : '',
  ].join('');
}

export const marketPairs = defineEndpoint({
  name: 'get_market_pairs',
  rowName: 'pair',
  title: 'Market pairs of an asset',
  toolset: 'cryptocurrency',
  path: '/v2/cryptocurrency/market-pairs/latest',
  summary: 'Where one asset trades: exchange pairs with price and 24h volume, largest first.',
  input: paramsObject(
    {
      id: oneId,
      slug: oneSlug,
      symbol: oneSymbol.describe('One crypto symbol, e.g. BTC (fiat: use id).'),
      ...pageParams(5000, 20),
      sort: enumParam(SORTS, 'Default volume_24h_strict.').optional(),
      sort_dir: enumParam(['asc', 'desc'], 'Default desc.').optional(),
      matched_id: idListParam.optional().describe('Only pairs against these ids, e.g. 825 (USDT).'),
      matched_symbol: symbolListParam
        .optional()
        .describe('Only pairs against these symbols, e.g. USDT, USD.'),
      category: enumParam(['all', 'spot', 'derivatives', 'otc', 'perpetual'], 'Default all.').optional(),
      fee_type: enumParam(
        ['all', 'percentage', 'no-fees', 'transactional-mining', 'unknown'],
        'Default all.',
      ).optional(),
      ...currencyParams(),
    },
    convertExclusive,
    exactlyOne('id', 'slug', 'symbol'),
    notTogether('matched_id', 'matched_symbol'),
  ),
  serviceParams: { ...servicePage(5000, 100), aux: namesListParam(AUX, 'Supplemental fields.') },
  output: pairsOutput,
  credits: perItems({
    per: 100,
    what: 'market pairs',
    items: (p: { limit: number }) => p.limit,
    scales: 'limit',
    convert: true,
  }),
  pages: offsetPages(
    { fixed: 240, perCurrency: 100 },
    {
      list: 'market_pairs',
      total: (data) => (typeof data.num_market_pairs === 'number' ? data.num_market_pairs : undefined),
    },
  ),
  refreshSeconds: 60,
  plans: plansFrom('standard'),
  normalise(body, params) {
    return { ...parseBody(upstreamPairs, dataOf(body)), start: params.start };
  },
  summarise(data, params) {
    const which = `market pairs${pairsFilter(params)}`;
    if (data.market_pairs.length === 0)
      return `${data.name} (${data.symbol}): no ${which} from start=${data.start}.`;
    return lines(
      `${data.name} (${data.symbol}): ${formatNumber(data.num_market_pairs)} ${which}; ${data.market_pairs.length} from start=${data.start}:`,
      table(
        ['Exchange', 'Pair', 'Category', 'Price', 'Volume 24h'],
        data.market_pairs.map((p) => {
          const q = p.quote[0];
          return [
            p.exchange,
            p.market_pair,
            p.category ?? '',
            formatPrice(q?.price, q?.currency),
            formatMoney(q?.volume_24h, q?.currency),
          ];
        }),
      ),
    );
  },
});
