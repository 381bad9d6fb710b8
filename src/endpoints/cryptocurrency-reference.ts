/** Reference data about cryptocurrencies: the id map, asset info, and categories. */
import { z } from 'zod';
import { formatMoney, formatPercent } from '../format/numbers.js';
import { counted, formatTime, lines, table } from '../format/text.js';
import { perCall, perItems } from '../kit/credits.js';
import { dataOf, defineEndpoint, UnexpectedBodyError } from '../kit/define.js';
import { lenient } from '../kit/lenient.js';
import { namedPages, offsetPages } from '../kit/pages.js';
import {
  convertExclusive,
  enumParam,
  namesListParam,
  paramsObject,
  splitList,
  symbolListParam,
} from '../kit/params.js';
import { ALL_PLANS } from '../kit/plans.js';
import { rankOf, recordsOf } from '../kit/shapes.js';
import { clip, FIND_ASSET } from '../messages.js';
import {
  assetsAsked,
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
import { asset, assetTable, CATEGORY_COIN_PAGES, LISTED_ROWS, upstreamAsset } from './assets.js';

// ---------------------------------------------------------------- map

const platform = z.object({
  id: z.number().optional(),
  name: z.string(),
  symbol: z.string().optional(),
  slug: z.string().optional(),
  token_address: z.string().optional(),
});

const mapEntry = z.object({
  id: z.number(),
  rank: z.number().optional().describe('Rank by market cap'),
  name: z.string(),
  symbol: z.string(),
  slug: z.string(),
  is_active: z.number().optional(),
  status: z.string().optional(),
  first_historical_data: z.string().optional(),
  last_historical_data: z.string().optional(),
  platform: platform.nullable().optional().describe("A token's chain; null for a coin"),
});
export type MapEntry = z.infer<typeof mapEntry>;
const upstreamMapEntry = lenient(mapEntry, { rank: (r) => r.rank ?? rankOf(r) });

const MAP_AUX = ['platform', 'first_historical_data', 'last_historical_data', 'is_active', 'status'] as const;

/** The id map's table, which search's answer shares: an asset and the chain its token is on. */
export const MAP_COLUMNS = ['Id', 'Symbol', 'Name', 'Slug', 'Rank', 'Platform'];
export function mapRow(
  a: { id: number; symbol: string; name: string; slug: string; rank?: number },
  platform: string | undefined,
): string[] {
  return [String(a.id), a.symbol, a.name, a.slug, a.rank === undefined ? '' : String(a.rank), platform ?? ''];
}

export const cryptocurrencyMap = defineEndpoint({
  name: 'get_cryptocurrency_map',
  rowName: 'asset',
  title: 'Crypto id map',
  toolset: 'cryptocurrency',
  inDefault: true,
  path: '/v1/cryptocurrency/map',
  summary:
    'All coins and tokens with ids, symbols, slugs, contract addresses; active, inactive or delisted. One coin by name: search_cryptocurrencies.',
  input: paramsObject({
    listing_status: namesListParam(['active', 'inactive', 'untracked'], 'Default active.'),
    ...pageParams(5000, 50),
    sort: enumParam(['id', 'svc_rank']).default('id'),
    symbol: symbolListParam.optional().describe('Only these symbols (other options ignored).'),
  }),
  serviceParams: { ...servicePage(5000), aux: namesListParam(MAP_AUX, 'Supplemental fields.') },
  output: z.object({
    start: z.number(),
    items: z.array(mapEntry),
    not_found: z.array(z.string()).optional().describe('Symbols asked for that no asset has'),
  }),
  credits: perCall(0, { text: 'free (older documentation: 1 per call)' }),
  pages: offsetPages({ fixed: 330, perCurrency: 0 }),
  refreshSeconds: 30,
  plans: ALL_PLANS,
  normalise(body, params) {
    const items = recordsOf(upstreamMapEntry, dataOf(body));
    const found = new Set(items.map((a) => a.symbol.toUpperCase()));
    const missing = splitList(params.symbol ?? '').filter((s) => s !== '' && !found.has(s.toUpperCase()));
    return { start: params.start, items, ...(missing.length > 0 ? { not_found: missing } : {}) };
  },
  summarise(data, params) {
    const notFound =
      data.not_found &&
      `No asset has the symbol${data.not_found.length === 1 ? '' : 's'} ${clip(data.not_found.join(', '), 200)}: ${FIND_ASSET}.`;
    if (data.items.length === 0) return notFound ?? `No cryptocurrencies from start=${data.start}.`;
    return lines(
      `${counted(data.items.length, 'cryptocurrency')} from start=${data.start}, by ${params.sort}:`,
      table(
        MAP_COLUMNS,
        data.items.map((a) => mapRow(a, a.platform?.name)),
      ),
      notFound,
    );
  },
});

// ---------------------------------------------------------------- info

const info = z.object({
  id: z.number(),
  name: z.string(),
  symbol: z.string(),
  slug: z.string(),
  category: z.string().optional().describe('coin or token'),
  description: z.string().optional(),
  logo: z.string().optional(),
  date_added: z.string().optional(),
  date_launched: z.string().optional(),
  tags: z.array(z.string()).optional(),
  platform: platform.nullable().optional(),
  notice: z.string().optional(),
  urls: z
    .record(z.string(), z.array(z.string()))
    .optional()
    .describe('Links by kind: website, explorer, twitter, reddit, …'),
});
type Info = z.infer<typeof info>;

/** Url kinds with no links are left out; `platform` arrives with `token_address` (documented) or not. */
const upstreamInfo = lenient(info, {
  urls: z
    .record(z.string(), z.array(z.string()).nullish())
    .nullish()
    .transform((urls) => {
      const kept = Object.entries(urls ?? {}).filter(([, list]) => list && list.length > 0);
      return kept.length > 0 ? (Object.fromEntries(kept) as Record<string, string[]>) : undefined;
    }),
});

const INFO_AUX = [
  'urls',
  'logo',
  'description',
  'tags',
  'platform',
  'date_added',
  'notice',
  'status',
] as const;

function describeInfo(a: Info, full: boolean): string {
  const link = (kind: string) => a.urls?.[kind]?.[0];
  const links = ['website', 'explorer', 'twitter', 'reddit', 'technical_doc', 'source_code']
    .filter((kind) => link(kind))
    .map((kind) => `${kind.replace('_', ' ')} ${link(kind)}`);
  const where = a.platform
    ? `token on ${a.platform.name}${a.platform.token_address ? ` (${a.platform.token_address})` : ''}`
    : a.category;
  return lines(
    `${a.name} (${a.symbol}), id ${a.id}${where ? `, ${where}` : ''}${a.date_added ? `, listed ${formatTime(a.date_added, true)}` : ''}`,
    full && a.tags && a.tags.length > 0 && `Tags: ${a.tags.slice(0, 12).join(', ')}`,
    full && links.length > 0 && `Links: ${links.join('; ')}`,
    full && a.description && (a.description.length > 400 ? `${a.description.slice(0, 400)}…` : a.description),
  );
}

export const cryptocurrencyInfo = defineEndpoint({
  name: 'get_cryptocurrency_info',
  rowName: 'asset',
  title: 'Crypto info',
  toolset: 'cryptocurrency',
  inDefault: true,
  path: '/v2/cryptocurrency/info',
  summary:
    'What a coin or project is and does: description, website, whitepaper, twitter and social links, explorers, tags, launch date, contract.',
  input: paramsObject(
    {
      id: idsParam,
      slug: slugsParam,
      symbol: symbolsParam,
      address: z
        .string()
        .regex(/^[0-9A-Za-z]{20,128}$/, {
          message: 'must be a contract address (20 to 128 letters and digits)',
        })
        .optional()
        .describe('A token contract address.'),
      skip_invalid: skipInvalid,
    },
    exactlyOne('id', 'slug', 'symbol', 'address'),
  ),
  serviceParams: { aux: namesListParam(INFO_AUX, 'Fields.'), ...serviceSkipInvalid },
  output: z.object({ items: z.array(info) }),
  credits: perItems({ per: 100, what: 'assets', items: namedCount }),
  pages: namedPages({ fixed: 3_000, perCurrency: 0 }),
  refreshSeconds: 30,
  plans: ALL_PLANS,
  normalise(body) {
    return { items: recordsOf(upstreamInfo, dataOf(body)) };
  },
  summarise(data) {
    if (data.items.length === 0) return 'No info: none of the assets asked for is known.';
    // In full (tags, links, description) for one or two assets; a line each for more.
    return lines(...data.items.map((a) => describeInfo(a, data.items.length <= 2)));
  },
});

// ---------------------------------------------------------------- categories

const category = z.object({
  id: z.string().describe('Category id, for get_category'),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  num_tokens: z.number().optional(),
  avg_price_change: z.number().optional(),
  market_cap: z.number().optional(),
  market_cap_change: z.number().optional().describe('Percent, 24h'),
  volume: z.number().optional(),
  volume_change: z.number().optional().describe('Percent, 24h'),
  last_updated: z.string().optional(),
});
const upstreamCategory = lenient(category);

/** 1 per call + 1 per 200 records, rounded up (the categories endpoints). */
function categoryCredits(what: string, convert: boolean) {
  return perItems({
    base: 1,
    per: 200,
    what,
    items: (p: { limit: number }) => p.limit,
    scales: 'limit',
    convert,
  });
}

export const categories = defineEndpoint({
  name: 'list_categories',
  rowName: 'category',
  title: 'Cryptocurrency categories',
  toolset: 'cryptocurrency',
  path: '/v1/cryptocurrency/categories',
  summary:
    'Categories (DeFi, Layer 1, ...) with coin count, market cap, volume and 24h changes; get_category lists the coins.',
  input: paramsObject({
    ...pageParams(5000, LISTED_ROWS),
    id: idsParam.describe('Only categories holding these asset ids, comma-separated.'),
    slug: slugsParam.describe('Only categories holding these slugs.'),
    symbol: symbolsParam.describe('Only categories holding these symbols.'),
  }),
  serviceParams: { ...servicePage(5000) },
  output: z.object({ start: z.number(), items: z.array(category) }),
  credits: categoryCredits('categories', false),
  pages: offsetPages({ fixed: 420, perCurrency: 0 }),
  refreshSeconds: 30,
  plans: ALL_PLANS,
  normalise(body, params) {
    return { start: params.start, items: recordsOf(upstreamCategory, dataOf(body)) };
  },
  summarise(data, params) {
    if (data.items.length === 0) return 'No categories match.';
    const holding = assetsAsked(params);
    return lines(
      `${counted(data.items.length, 'category')}${holding === undefined ? '' : ` holding ${holding}`} from start=${data.start}:`,
      table(
        ['Category', 'Id', 'Coins', 'Market cap', 'Cap 24h', 'Volume'],
        data.items.map((c) => [
          c.name,
          c.id,
          String(c.num_tokens ?? ''),
          formatMoney(c.market_cap),
          formatPercent(c.market_cap_change),
          formatMoney(c.volume),
        ]),
      ),
    );
  },
});

const categoryDetail = category.extend({ start: z.number(), coins: z.array(asset) });
const upstreamCategoryDetail = lenient(category.extend({ coins: z.array(asset) }), {
  coins: z
    .array(upstreamAsset)
    .nullish()
    .transform((coins) => coins ?? []),
});

export const categoryCoins = defineEndpoint({
  name: 'get_category',
  rowName: 'asset',
  title: 'Cryptocurrency category',
  toolset: 'cryptocurrency',
  path: '/v1/cryptocurrency/category',
  summary: 'One category (id from list_categories): its figures and coins, paged.',
  input: paramsObject(
    {
      id: z
        .string()
        .regex(/^[0-9a-f]{24}$/i, { message: 'must be a category id from list_categories (24 hex digits)' })
        .describe('Category id from list_categories (24 hex digits).'),
      ...pageParams(1000, LISTED_ROWS),
      ...currencyParams(),
    },
    convertExclusive,
  ),
  serviceParams: { ...servicePage(1000, 100) },
  output: categoryDetail,
  credits: categoryCredits('coins', true),
  pages: CATEGORY_COIN_PAGES,
  refreshSeconds: 30,
  plans: ALL_PLANS,
  normalise(body, params) {
    // Documented keyed by id ({"1": {...}}); observed as the object itself.
    const [detail] = recordsOf(upstreamCategoryDetail, dataOf(body));
    if (detail === undefined) throw new UnexpectedBodyError('data: no category');
    return { ...detail, start: params.start };
  },
  summarise(c) {
    return lines(
      `${c.name}: ${counted(c.num_tokens ?? c.coins.length, 'coin')}, market cap ${formatMoney(c.market_cap)} (${formatPercent(c.market_cap_change)} 24h), volume ${formatMoney(c.volume)} (${formatTime(c.last_updated)})`,
      c.coins.length > 0 && `Coins from start=${c.start}:`,
      c.coins.length > 0 && assetTable(c.coins),
    );
  },
});
