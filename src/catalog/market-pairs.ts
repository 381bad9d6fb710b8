/** Where an asset trades: its market pairs across exchanges, with price and volume. */
import { z } from 'zod';
import { formatMoney, formatNumber, formatPrice } from '../format/numbers.js';
import { cutRows, lines, omittedLine, table } from '../format/text.js';
import { currencies, exactlyOne, notTogether, oneId, oneSlug, oneSymbol, page } from './asset-params.js';
import { perItems } from './credits.js';
import { dataOf, defineEndpoint, parseBody, plansFrom } from './define.js';
import { lenient } from './lenient.js';
import {
  convertExclusive,
  enumParam,
  idListParam,
  namesListParam,
  paramsObject,
  symbolListParam,
} from './params.js';
import { quoteEntry, quoteOf } from './quotes.js';

const SORTS = [
  'volume_24h_strict',
  'svc_rank',
  'svc_rank_advanced',
  'effective_liquidity',
  'market_score',
  'market_reputation',
] as const;
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

const side = z.object({
  currency_id: z.number().optional(),
  currency_symbol: z.string(),
  currency_type: z.string().optional().describe('cryptocurrency or fiat'),
});
const pairQuote = quoteEntry(['price', 'volume_24h']);
const pair = z.object({
  exchange: z.object({ id: z.number().optional(), name: z.string(), slug: z.string().optional() }),
  market_id: z.number().optional(),
  market_pair: z.string(),
  category: z.string().optional(),
  fee_type: z.string().optional(),
  base: side,
  quote_currency: side,
  quote: z.array(pairQuote).describe('Price and 24h volume in each requested currency'),
  exchange_reported: z
    .object({
      price: z.number().optional(),
      volume_24h_base: z.number().optional(),
      volume_24h_quote: z.number().optional(),
    })
    .optional()
    .describe('As the exchange reports it, in the quote currency'),
});

const REPORTED = 'exchange_reported';
/** The service's quote mixes the exchange's own figures (`exchange_reported`) with the requested currencies. */
const upstreamPair = lenient(pair, {
  base: 'market_pair_base',
  quote_currency: 'market_pair_quote',
  exchange_reported: `quote.${REPORTED}`,
  quote: z
    .record(z.string(), z.unknown())
    .transform((q): unknown => Object.fromEntries(Object.entries(q).filter(([key]) => key !== REPORTED)))
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

export const marketPairs = defineEndpoint({
  name: 'get_market_pairs',
  title: 'Market pairs of an asset',
  toolset: 'cryptocurrency',
  path: '/v2/cryptocurrency/market-pairs/latest',
  summary:
    'Where one asset (crypto or fiat) trades: exchanges and pairs with price and 24h volume, largest first; filter by category, fee type or the other side of the pair.',
  input: paramsObject(
    {
      id: oneId,
      slug: oneSlug,
      symbol: oneSymbol.describe('One crypto symbol, e.g. "BTC" (fiat: use id).'),
      ...page(5000, 20, 'Pairs', 100),
      sort: enumParam(SORTS, 'Sort key; default volume_24h_strict.').optional(),
      sort_dir: enumParam(['asc', 'desc'], 'Default desc.').optional(),
      aux: namesListParam(AUX, 'Extra fields; default num_market_pairs,category,fee_type.'),
      matched_id: idListParam.optional().describe('Only pairs against these asset ids, e.g. "825" (USDT).'),
      matched_symbol: symbolListParam
        .optional()
        .describe('Only pairs against these symbols, e.g. "USDT,USD".'),
      category: enumParam(['all', 'spot', 'derivatives', 'otc', 'perpetual'], 'Default all.').optional(),
      fee_type: enumParam(
        ['all', 'percentage', 'no-fees', 'transactional-mining', 'unknown'],
        'Default all.',
      ).optional(),
      ...currencies(),
    },
    convertExclusive,
    exactlyOne('id', 'slug', 'symbol'),
    notTogether('matched_id', 'matched_symbol'),
  ),
  output: pairsOutput,
  credits: perItems({
    per: 100,
    what: 'market pairs returned',
    items: (p: { limit: number }) => p.limit,
    scales: 'limit',
    convert: true,
  }),
  refreshSeconds: 60,
  plans: plansFrom('standard'),
  normalise(body, params) {
    return { ...parseBody(upstreamPairs, dataOf(body)), start: params.start };
  },
  summarise(data) {
    const { shown, omitted } = cutRows(data.market_pairs, 20);
    const next = data.start + data.market_pairs.length;
    return lines(
      `${data.name} (${data.symbol}): ${formatNumber(data.num_market_pairs)} market pairs; ${data.market_pairs.length} from start=${data.start}:`,
      data.market_pairs.length > 0 &&
        table(
          ['Exchange', 'Pair', 'Category', 'Price', 'Volume 24h'],
          shown.map((p) => {
            const q = p.quote[0];
            return [
              p.exchange.name,
              p.market_pair,
              p.category ?? '',
              formatPrice(q?.price, q?.currency),
              formatMoney(q?.volume_24h, q?.currency),
            ];
          }),
        ),
      omittedLine(omitted, `format=json has this page; next page: start=${next}`),
    );
  },
});
