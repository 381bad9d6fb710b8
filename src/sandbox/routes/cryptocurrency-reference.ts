/** The cryptocurrency map, asset info, and categories (the assets' tags). */

import { resolveConvert } from '../currencies.js';
import { badRequest } from '../envelope.js';
import { ASSETS, type Asset } from '../market/assets.js';
import { CATEGORIES, type Category, categoryById, categoryFigures } from '../market/categories.js';
import { marketAt } from '../market/snapshot.js';
import { floorTo, historyStart, iso, MINUTE } from '../market/time.js';
import { assetRecordJson, platformOf, tagName } from '../records.js';
import { INFO_AUX } from '../service/cryptocurrency.js';
import type { reference as endpoints } from '../service/index.js';
import { latestFrame } from './cryptocurrency.js';
import { keyedJson, namedAssets } from './named.js';
import type { HandlerOf } from './types.js';

/** ids, names, symbols and slugs; `rank` is the current market-cap rank. */
export const cryptocurrencyMap: HandlerOf<typeof endpoints.cryptocurrencyMap> = {
  envelope: 'standard',
  handle({ params, now }) {
    const p = params;
    const t = floorTo(now, MINUTE);
    const m = marketAt(t);
    const aux = new Set(
      (p.aux ?? 'platform,first_historical_data,last_historical_data,is_active').split(','),
    );
    const first = historyStart(now);
    let rows = Array.from(m.order);
    if (p.symbol !== undefined) {
      // With symbol, the other options are ignored (docs/service.md, "Limits").
      const wanted = new Set(p.symbol.split(',').map((s) => s.toUpperCase()));
      rows = rows.filter((i) => wanted.has(ASSETS[i]!.symbol.toUpperCase()));
    } else {
      // Every sandbox asset is active: asking only for inactive or untracked ones finds none.
      if (!(p.listing_status ?? 'active').split(',').includes('active')) rows = [];
      if (p.sort === 'id') rows.sort((x, y) => ASSETS[x]!.id - ASSETS[y]!.id);
      rows = rows.slice(p.start - 1, p.limit === undefined ? undefined : p.start - 1 + p.limit);
    }
    const data = rows.map((i) => {
      const a = ASSETS[i]!;
      const item: Record<string, unknown> = {
        id: a.id,
        rank: m.rank[i],
        name: a.name,
        symbol: a.symbol,
        slug: a.slug,
      };
      if (aux.has('is_active')) item.is_active = 1;
      if (aux.has('status')) item.status = 'active';
      if (aux.has('first_historical_data')) item.first_historical_data = iso(Math.max(a.dateAdded, first));
      if (aux.has('last_historical_data')) item.last_historical_data = iso(t);
      if (aux.has('platform')) item.platform = platformOf(a);
      return item;
    });
    return { dataJson: JSON.stringify(data), items: data.length };
  },
};

const LINKS = [
  'website',
  'technical_doc',
  'explorer',
  'source_code',
  'message_board',
  'chat',
  'announcement',
  'reddit',
  'twitter',
];

/** Made-up links on reserved domains (.example): plausible, never someone's real site. */
function urlsOf(a: Asset): Record<string, string[]> {
  const urls: Record<string, string[]> = Object.fromEntries(LINKS.map((kind) => [kind, []]));
  urls.website = [`https://${a.slug}.example/`];
  urls.twitter = [`https://x.example/${a.slug.replace(/-/g, '')}`];
  urls.reddit = [`https://reddit.example/r/${a.slug}`];
  urls.explorer = [
    a.platform === null
      ? `https://explorer.${a.slug}.example/`
      : `https://scan.${a.platform}.example/token/${platformOf(a)?.token_address}`,
  ];
  if (a.platform === null) urls.source_code = [`https://git.example/${a.slug}`];
  urls.technical_doc = [`https://${a.slug}.example/whitepaper.pdf`];
  return urls;
}

function infoRecord(a: Asset, aux: ReadonlySet<string>): Record<string, unknown> {
  const platform = platformOf(a);
  const kind = platform ? `a token on ${platform.name}` : 'a coin with its own chain';
  const record: Record<string, unknown> = {
    id: a.id,
    name: a.name,
    symbol: a.symbol,
    slug: a.slug,
    category: platform ? 'token' : 'coin',
  };
  if (aux.has('logo')) record.logo = `https://sandbox.svc.invalid/static/img/coins/64x64/${a.id}.png`;
  if (aux.has('description')) {
    record.description = `${a.name} (${a.symbol}) is ${kind}, listed since ${iso(a.dateAdded).slice(0, 10)}. Its tags: ${a.tags.map(tagName).join(', ')}. (Sandbox description.)`;
  }
  if (aux.has('date_added')) {
    record.date_added = iso(a.dateAdded);
    record.date_launched = iso(a.dateAdded);
  }
  if (aux.has('tags')) {
    record.tags = a.tags;
    record['tag-names'] = a.tags.map(tagName);
  }
  if (aux.has('platform')) record.platform = platform;
  if (aux.has('notice')) record.notice = '';
  if (aux.has('status')) record.status = 'active';
  if (aux.has('urls')) record.urls = urlsOf(a);
  record.is_hidden = 0;
  return record;
}

/** The service's default fields: every one but status. */
const DEFAULT_INFO_AUX = INFO_AUX.filter((name) => name !== 'status').join(',');

/** Keyed by id (id, slug, address) or by symbol with lists. */
export const cryptocurrencyInfo: HandlerOf<typeof endpoints.cryptocurrencyInfo> = {
  envelope: 'standard',
  handle({ params }) {
    const aux = new Set((params.aux ?? DEFAULT_INFO_AUX).split(','));
    const { by, assets } = namedAssets(params, { skipByDefault: false });
    return {
      dataJson: keyedJson(
        by,
        assets,
        assets.map((a) => JSON.stringify(infoRecord(a, aux))),
      ),
      items: assets.length,
    };
  },
};

function categoryRecord(c: Category, now: number): Record<string, unknown> {
  const f = latestFrame(now);
  const figures = categoryFigures(c, f.now, f.dayAgo);
  const name = tagName(c.tag);
  return {
    id: c.id,
    name,
    title: name,
    description: `${name} assets`,
    num_tokens: figures.numTokens,
    avg_price_change: figures.avgPriceChange,
    market_cap: figures.marketCap,
    market_cap_change: figures.marketCapChange,
    volume: figures.volume,
    volume_change: figures.volumeChange,
    last_updated: iso(f.t),
  };
}

/** Largest market cap first; id, slug or symbol keep the categories holding those assets. */
export const categories: HandlerOf<typeof endpoints.categories> = {
  envelope: 'standard',
  handle({ params, now }) {
    const p = params;
    const named = (['id', 'slug', 'symbol'] as const).some((k) => params[k] !== undefined)
      ? namedAssets(params, { skipByDefault: false }).assets
      : undefined;
    const wanted = named?.map((a) => a.index);
    const records = CATEGORIES.filter(
      (c) => wanted === undefined || wanted.some((i) => c.members.includes(i)),
    )
      .map((c) => categoryRecord(c, now))
      .sort((a, b) => (b.market_cap as number) - (a.market_cap as number));
    const page = records.slice(p.start - 1, p.limit === undefined ? undefined : p.start - 1 + p.limit);
    return { dataJson: JSON.stringify(page), items: page.length };
  },
};

/** One category and its coins, by market cap, paged. */
export const categoryCoins: HandlerOf<typeof endpoints.categoryCoins> = {
  envelope: 'standard',
  handle({ params, now }) {
    const p = params;
    const c = categoryById.get(p.id.toLowerCase());
    if (!c) {
      throw badRequest(
        `Invalid value for "id": "${p.id}" is not a known category id. /v1/cryptocurrency/categories lists them.`,
      );
    }
    const f = latestFrame(now);
    const currencies = resolveConvert(params);
    const coins = Array.from(f.now.order)
      .filter((i) => c.members.includes(i))
      .slice(p.start - 1, p.start - 1 + p.limit);
    const dataJson = `${JSON.stringify(categoryRecord(c, now)).slice(0, -1)},"coins":[${coins.map((i) => assetRecordJson(i, f, currencies)).join(',')}]}`;
    return { dataJson, items: coins.length };
  },
};
