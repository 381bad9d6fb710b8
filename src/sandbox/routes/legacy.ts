/** The deprecated endpoints: v1 listings answer as v3 does; v2 quotes keyed by what was asked. */

import { resolveConvert } from '../currencies.js';
import type { Asset } from '../market/assets.js';
import { assetRecord, tagName } from '../records.js';
import type { legacy as endpoints } from '../service/index.js';
import { latestFrame, listingsLatest } from './cryptocurrency.js';
import { keyedJson, namedAssets } from './named.js';
import type { HandlerOf } from './types.js';

export const listingsLatestV1 = listingsLatest;

/** v2: keyed by id (id, slug) or by symbol with lists; tags as objects; unknown ones skipped by default. */
export const quotesLatestV2: HandlerOf<typeof endpoints.quotesLatestV2> = {
  envelope: 'standard',
  handle({ params, now }) {
    const currencies = resolveConvert(params);
    const f = latestFrame(now);
    const { by, assets } = namedAssets(params, { skipByDefault: true, listed: f.now.listed });
    const record = (a: Asset) => {
      const r = assetRecord(a.index, f, currencies);
      return JSON.stringify({
        ...r,
        tags: a.tags.map((slug) => ({ slug, name: tagName(slug), category: 'OTHERS' })),
        is_active: 1,
        is_fiat: 0,
      });
    };
    return { dataJson: keyedJson(by, assets, assets.map(record)), items: assets.length };
  },
};
