/** Cryptocurrency listings (ranked by market cap) and quotes for named assets, v3. */
import { z } from 'zod';
import { formatMoney, formatNumber, formatPercent, formatPrice } from '../format/numbers.js';
import { formatTime, lines, table } from '../format/text.js';
import { perItems } from '../kit/credits.js';
import { dataOf, defineEndpoint } from '../kit/define.js';
import { convertExclusive, enumParam, namesListParam, paramsObject } from '../kit/params.js';
import { ALL_PLANS } from '../kit/plans.js';
import { recordsOf } from '../kit/shapes.js';
import {
  currencyParams,
  exactlyOne,
  idsParam,
  namedCount,
  pageParams,
  servicePage,
  serviceSkipInvalid,
  skipInvalid,
  slugsParam,
  symbolsParam,
} from './asset-params.js';
import {
  type Asset,
  asset,
  assetPage,
  assetTable,
  LISTED_PAGES,
  LISTED_ROWS,
  NAMED_PAGES,
  upstreamAsset,
} from './assets.js';

/** `data` as the spec writes it (an array), or in the v2 form: keyed by id, or by symbol with arrays. */
function assetsOf(body: unknown): Asset[] {
  return recordsOf(upstreamAsset, dataOf(body));
}

// ---------------------------------------------------------------- listings

/** The service's sorts, the common ones first: a tool list shows the first few (mcp/tools.ts). */
const LISTING_SORTS = [
  'market_cap',
  'volume_24h',
  'percent_change_24h',
  'price',
  'name',
  'date_added',
  'symbol',
  'circulating_supply',
  'total_supply',
  'max_supply',
  'num_market_pairs',
  'percent_change_1h',
  'percent_change_7d',
  'market_cap_strict',
  'market_cap_by_total_supply_strict',
  'volume_7d',
  'volume_30d',
] as const;

const AUX_FIELDS = [
  'num_market_pairs',
  'svc_rank',
  'date_added',
  'tags',
  'platform',
  'max_supply',
  'circulating_supply',
  'total_supply',
  'market_cap_by_total_supply',
  'volume_24h_reported',
  'volume_7d',
  'volume_7d_reported',
  'volume_30d',
  'volume_30d_reported',
] as const;

/** The service's `aux` of the listings and quotes: served, not offered (see serviceParams). */
function auxParams(extra: readonly string[]) {
  return { aux: namesListParam([...AUX_FIELDS, ...extra], 'Supplemental fields.') };
}

const RANGE_FILTERS = ['price', 'market_cap', 'volume_24h', 'circulating_supply'] as const;

/** `<figure>_min` and `_max` for each range filter: the names say what; the unit is described. */
type RangeName = (typeof RANGE_FILTERS)[number] | 'percent_change_24h';

function rangeShape() {
  const shape = {} as Record<`${RangeName}_${'min' | 'max'}`, z.ZodOptional<z.ZodNumber>>;
  for (const name of RANGE_FILTERS) {
    for (const end of ['min', 'max'] as const) {
      shape[`${name}_${end}`] = z
        .number()
        .min(0)
        .max(1e17)
        .optional()
        .describe(name === 'circulating_supply' ? 'Coins.' : 'USD.');
    }
  }
  for (const end of ['min', 'max'] as const) {
    shape[`percent_change_24h_${end}`] = z.number().min(-100).max(1e9).optional().describe('Percent.');
  }
  return shape;
}

/**
 * The listings parameters (v3, and v1 with its own `tag`): page, range filters, currencies, sort,
 * type; min must not exceed max.
 */
export function listingsInput<T extends z.ZodType>(tag: T) {
  return paramsObject(
    {
      ...pageParams(5000, LISTED_ROWS),
      ...rangeShape(),
      ...currencyParams(),
      sort: enumParam(LISTING_SORTS, 'Default market_cap.').optional(),
      sort_dir: enumParam(['asc', 'desc'], 'Default desc.').optional(),
      cryptocurrency_type: enumParam(['all', 'coins', 'tokens'], 'Default all.').optional(),
      tag,
    },
    convertExclusive,
    (value, add) => {
      for (const name of [...RANGE_FILTERS, 'percent_change_24h']) {
        const min = value[`${name}_min`] as number | undefined;
        const max = value[`${name}_max`] as number | undefined;
        if (min !== undefined && max !== undefined && min > max) {
          add({ path: `${name}_min`, message: `must not be greater than ${name}_max` });
        }
      }
    },
  );
}

/** The filters a listings call asked for, as its text says them: "price 1 to 100, tokens, tagged defi". */
function filtersOf(params: Record<string, unknown>): string | undefined {
  const said: string[] = [];
  for (const name of [...RANGE_FILTERS, 'percent_change_24h']) {
    const [min, max] = [params[`${name}_min`], params[`${name}_max`]].map((v) =>
      typeof v === 'number' ? formatNumber(v) : undefined,
    );
    if (min !== undefined && max !== undefined) said.push(`${name} ${min} to ${max}`);
    else if (min !== undefined) said.push(`${name} at least ${min}`);
    else if (max !== undefined) said.push(`${name} at most ${max}`);
  }
  const { cryptocurrency_type: type, tag } = params;
  if (typeof type === 'string' && type !== 'all') said.push(type);
  if (typeof tag === 'string' && tag !== 'all') said.push(`tagged ${tag}`);
  return said.length === 0 ? undefined : `filtered: ${said.join(', ')}`;
}

/** The listings answer: a heading (with the filters asked for), then the table of the page. */
function summariseListings(
  data: { start: number; items: Asset[] },
  params: Record<string, unknown> & { start: number; sort?: string; sort_dir?: string },
): string {
  const [first] = data.items;
  const filters = filtersOf(params);
  if (!first) return `No cryptocurrencies match from start=${params.start}${filters ? ` (${filters})` : ''}.`;
  const last = data.start + data.items.length - 1;
  return lines(
    `Cryptocurrencies ${data.start}–${last} by ${params.sort ?? 'market_cap'} (${params.sort_dir ?? 'desc'}), ${formatTime(first.last_updated)}${filters ? `; ${filters}` : ''}`,
    assetTable(data.items),
  );
}

/** The listings credit rule (v1 and v3): 1 per 200 assets, rounded up, plus converts. */
const LISTINGS_CREDITS = perItems({
  per: 200,
  what: 'assets',
  items: (p: { limit: number }) => p.limit,
  scales: 'limit',
  convert: true,
});

/** What the listings (v3, and the deprecated v1) share: all but their names, paths and tags. */
export const LISTINGS = {
  serviceParams: { ...auxParams(['is_market_cap_included_in_calc']), ...servicePage(5000, 100) },
  output: assetPage,
  credits: LISTINGS_CREDITS,
  pages: LISTED_PAGES,
  refreshSeconds: 60,
  plans: ALL_PLANS,
  normalise(body: unknown, params: { start: number }) {
    return { start: params.start, items: assetsOf(body) };
  },
  summarise: summariseListings,
};

export const listingsLatest = defineEndpoint({
  name: 'get_cryptocurrency_listings_latest',
  rowName: 'asset',
  title: 'Crypto listings (latest)',
  toolset: 'cryptocurrency',
  inDefault: true,
  path: '/v3/cryptocurrency/listings/latest',
  summary:
    'Rank all cryptocurrencies: top coins and tokens by market cap, trading volume or price; filter by price (under a dollar), cap, tag (defi).',
  input: listingsInput(
    z
      .string()
      // Every tag slug is lower case: one written in capitals means the same one.
      .overwrite((v) => v.toLowerCase())
      .max(64, 'must be a tag slug of at most 64 characters')
      .regex(/^[a-z0-9-]+$/, { message: 'must be a tag slug: letters, digits and hyphens, e.g. "defi"' })
      .optional()
      .describe('e.g. defi.'),
  ),
  ...LISTINGS,
});

// ---------------------------------------------------------------- quotes

/** The quotes tools' parameters (v3 and the deprecated v2): assets by exactly one of id, slug or symbol. */
export function quotesInput() {
  return paramsObject(
    {
      id: idsParam,
      slug: slugsParam,
      symbol: symbolsParam,
      ...currencyParams(),
      skip_invalid: skipInvalid,
    },
    convertExclusive,
    exactlyOne('id', 'slug', 'symbol'),
  );
}

/** What the quotes (v3, and the deprecated v2) share: all but their names, paths and input. */
export const QUOTES = {
  serviceParams: { ...auxParams(['is_active', 'is_fiat']), ...serviceSkipInvalid },
  output: z.object({ items: z.array(asset) }),
  credits: perItems({ per: 100, what: 'assets', items: namedCount, convert: true }),
  pages: NAMED_PAGES,
  refreshSeconds: 60,
  plans: ALL_PLANS,
  normalise(body: unknown) {
    return { items: assetsOf(body) };
  },
  summarise: summariseQuotes,
};

export const quotesLatest = defineEndpoint({
  name: 'get_cryptocurrency_quotes_latest',
  rowName: 'asset',
  title: 'Crypto quotes (latest)',
  toolset: 'cryptocurrency',
  inDefault: true,
  path: '/v3/cryptocurrency/quotes/latest',
  summary:
    'Price of coins right now: how much one is worth or trading at today, with 24h change, volume, market cap, in any currency (euros). Past prices: get_cryptocurrency_quotes_historical.',
  input: quotesInput(),
  ...QUOTES,
});

/** Currencies a quotes row shows beside its first one; format=json has them all. */
const OTHER_CURRENCIES = 3;

/** The quotes answer: the first asset's headline, then a row per asset in its first currency. */
function summariseQuotes(data: { items: Asset[] }): string {
  const [lead] = data.items;
  if (!lead) return 'No quotes: none of the assets asked for is known.';
  const q = lead.quote[0];
  const others = (a: Asset) => {
    const rest = a.quote.slice(1);
    const shown = rest.slice(0, OTHER_CURRENCIES).map((c) => formatPrice(c.price, c.currency));
    return rest.length > OTHER_CURRENCIES
      ? `${shown.join('; ')}; +${rest.length - OTHER_CURRENCIES}`
      : shown.join('; ');
  };
  return lines(
    `${lead.name} (${lead.symbol}) ${formatPrice(q?.price, q?.currency)}, ${formatPercent(q?.percent_change_24h)} 24h, ${formatPercent(q?.percent_change_7d)} 7d, market cap ${formatMoney(q?.market_cap, q?.currency)} (${formatTime(lead.last_updated)})`,
    (data.items.length > 1 || lead.quote.length > 1) &&
      table(
        ['Asset', 'Price', '1h', '24h', '7d', 'Volume 24h', 'In other currencies'],
        data.items.map((a) => {
          const c = a.quote[0];
          return [
            a.symbol,
            formatPrice(c?.price, c?.currency),
            formatPercent(c?.percent_change_1h),
            formatPercent(c?.percent_change_24h),
            formatPercent(c?.percent_change_7d),
            formatMoney(c?.volume_24h, c?.currency),
            others(a),
          ];
        }),
      ),
  );
}
