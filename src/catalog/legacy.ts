/**
 * Deprecated endpoints the service still answers, for integrations built on them: v1 listings and
 * v2 quotes. Their v3 successors are in cryptocurrency.ts; the answers have the same shape.
 */
import { z } from 'zod';
import { servicePage } from './asset-params.js';
import { asset, assetPage, LISTED_PAGES } from './assets.js';
import {
  assetsOf,
  auxParams,
  LISTINGS_CREDITS,
  listingsInput,
  QUOTES_CREDITS,
  quotesInput,
  summariseListings,
  summariseQuotes,
} from './cryptocurrency.js';
import { defineEndpoint } from './define.js';
import { UNPAGED } from './pages.js';
import { enumParam } from './params.js';
import { ALL_PLANS } from './plans.js';

export const listingsLatestV1 = defineEndpoint({
  name: 'get_cryptocurrency_listings_latest_v1',
  title: 'Cryptocurrency listings (v1, deprecated)',
  toolset: 'legacy',
  path: '/v1/cryptocurrency/listings/latest',
  summary: 'Deprecated v1 of get_cryptocurrency_listings_latest; prefer that.',
  input: listingsInput(enumParam(['all', 'defi', 'filesharing'], 'Tag; default all.').optional()),
  serviceParams: { ...auxParams(['is_market_cap_included_in_calc']), ...servicePage(5000, 100) },
  output: assetPage,
  credits: LISTINGS_CREDITS,
  pages: LISTED_PAGES,
  refreshSeconds: 60,
  plans: ALL_PLANS,
  normalise(body, params) {
    return { start: params.start, items: assetsOf(body) };
  },
  summarise: summariseListings,
});

export const quotesLatestV2 = defineEndpoint({
  name: 'get_cryptocurrency_quotes_latest_v2',
  title: 'Cryptocurrency quotes (v2, deprecated)',
  toolset: 'legacy',
  path: '/v2/cryptocurrency/quotes/latest',
  summary: `Deprecated v2 of get_cryptocurrency_quotes_latest; prefer that. ${UNPAGED}`,
  input: quotesInput(true),
  serviceParams: auxParams(['is_active', 'is_fiat']),
  output: z.object({ items: z.array(asset) }),
  credits: QUOTES_CREDITS,
  refreshSeconds: 60,
  plans: ALL_PLANS,
  normalise(body) {
    return { items: assetsOf(body) };
  },
  summarise: summariseQuotes,
});
