/**
 * The cryptocurrency record most cryptocurrency tools answer with (listings, quotes, trending,
 * categories): the asset, its rank and supply, and a quote per requested currency. Declared once;
 * the upstream reading is derived from it.
 */
import { z } from 'zod';
import { formatMoney, formatPercent, formatPrice } from '../format/numbers.js';
import { table } from '../format/text.js';
import { lenient } from '../kit/lenient.js';
import { namedPages, offsetPages } from '../kit/pages.js';
import { quoteEntry, quoteOf } from '../kit/quotes.js';
import { rankOf } from '../kit/shapes.js';

export const assetQuote = quoteEntry([
  'price',
  'volume_24h',
  'percent_change_1h',
  'percent_change_24h',
  'percent_change_7d',
  'market_cap',
]);

export const asset = z.object({
  id: z.number(),
  name: z.string(),
  symbol: z.string(),
  slug: z.string(),
  rank: z.number().optional().describe('Rank by market cap'),
  circulating_supply: z.number().optional(),
  max_supply: z.number().nullable().optional(),
  last_updated: z.string().optional(),
  quote: z.array(assetQuote).describe('One entry per currency'),
});
export type Asset = z.infer<typeof asset>;

/** A page of assets, as the listing tools answer it. */
export const assetPage = z.object({ start: z.number(), items: z.array(asset) });

/** The upstream reading of a record built on `asset` (extended, or with another quote entry). */
export function upstreamOf<S extends z.ZodObject>(record: S, quote: z.ZodObject) {
  return lenient(record, { rank: rankOf, quote: quoteOf(quote) });
}

/** The upstream record: rank under `<brand>_rank`, quote keyed or listed. */
export const upstreamAsset = upstreamOf(asset, assetQuote);

/** The assets a listing asks for by default: its text stays short; limit asks for more. */
export const LISTED_ROWS = 20;

/** A listed asset's record: its name, tags and figures, and a quote per currency. */
const LISTED_RECORD = { fixed: 300, perCurrency: 320 };
/** Pages of listed assets. */
export const LISTED_PAGES = offsetPages(LISTED_RECORD);
/** The same, for a category's assets (under `coins`). */
export const CATEGORY_COIN_PAGES = offsetPages(LISTED_RECORD, { list: 'coins' });
/** Assets named by id, slug or symbol, with their quotes. */
export const NAMED_PAGES = namedPages(LISTED_RECORD);

/**
 * "Market-cap rank, Asset, Price, 24h (or the period's change), Market cap" for each asset; the
 * rank is the asset's by market cap, not its place in this list (gainers, trending).
 */
export function assetTable(
  items: readonly Asset[],
  change: { label: string; key: string } = {
    label: '24h',
    key: 'percent_change_24h',
  },
): string {
  return table(
    ['Market-cap rank', 'Asset', 'Price', change.label, 'Market cap'],
    items.map((a) => {
      const q = a.quote[0];
      return [
        String(a.rank ?? '-'),
        `${a.name} (${a.symbol})`,
        formatPrice(q?.price, q?.currency),
        formatPercent((q as Record<string, unknown> | undefined)?.[change.key] as number | undefined),
        formatMoney(q?.market_cap, q?.currency),
      ];
    }),
  );
}
