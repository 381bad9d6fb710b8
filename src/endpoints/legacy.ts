/**
 * Deprecated endpoints the service still answers, for integrations built on them: v1 listings and
 * v2 quotes. Their v3 successors are in cryptocurrency.ts; the answers have the same shape.
 */

import { defineEndpoint } from '../kit/define.js';
import { enumParam } from '../kit/params.js';
import { LISTINGS, listingsInput, QUOTES, quotesInput } from './cryptocurrency.js';

export const listingsLatestV1 = defineEndpoint({
  name: 'get_cryptocurrency_listings_latest_v1',
  rowName: 'asset',
  title: 'Cryptocurrency listings (v1, deprecated)',
  toolset: 'legacy',
  path: '/v1/cryptocurrency/listings/latest',
  summary: 'Deprecated v1 of get_cryptocurrency_listings_latest; prefer that.',
  input: listingsInput(enumParam(['all', 'defi', 'filesharing'], 'Tag; default all.').optional()),
  ...LISTINGS,
});

export const quotesLatestV2 = defineEndpoint({
  name: 'get_cryptocurrency_quotes_latest_v2',
  rowName: 'asset',
  title: 'Cryptocurrency quotes (v2, deprecated)',
  toolset: 'legacy',
  path: '/v2/cryptocurrency/quotes/latest',
  summary: 'Deprecated v2 of get_cryptocurrency_quotes_latest; prefer that.',
  input: quotesInput(),
  ...QUOTES,
});
