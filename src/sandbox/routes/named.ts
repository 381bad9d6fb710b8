/**
 * Requests that name assets (by id, slug, symbol or contract address), and the v2 way of keying
 * the answer: by id for ids, slugs and addresses, by symbol with a list per symbol.
 */
import { badRequest } from '../envelope.js';
import { ASSETS, type Asset, assetById, assetBySlug, assetBySymbol, tokenAddress } from '../market/assets.js';

export type NamedBy = 'id' | 'slug' | 'symbol' | 'address';

const byAddress: ReadonlyMap<string, Asset> = new Map(
  ASSETS.filter((a) => a.platform !== null).map((a) => [tokenAddress(a).toLowerCase(), a]),
);

function lookup(by: NamedBy, item: string): Asset | undefined {
  if (by === 'id') return assetById.get(Number(item));
  if (by === 'slug') return assetBySlug.get(item);
  if (by === 'symbol') return assetBySymbol.get(item.toUpperCase());
  return byAddress.get(item.toLowerCase());
}

/** A token by its contract address (the k-line endpoints take these). */
export function assetByAddress(address: string): Asset | undefined {
  return byAddress.get(address.toLowerCase());
}

/**
 * The assets a request names, in its order, without repeats; an unknown one (or one not yet
 * listed, per `listed`) is a 400 unless skip_invalid is true (its default is `skipByDefault`).
 */
export function namedAssets(
  params: Partial<Record<NamedBy, string | number>> & { skip_invalid?: boolean },
  options: { skipByDefault: boolean; listed?: Uint8Array },
): { by: NamedBy; assets: Asset[] } {
  const by = (['id', 'slug', 'symbol', 'address'] as const).find((k) => params[k] !== undefined) ?? 'id';
  const skip = params.skip_invalid ?? options.skipByDefault;
  const assets: Asset[] = [];
  for (const item of String(params[by]).split(',')) {
    const asset = lookup(by, item);
    if (!asset || (options.listed && !options.listed[asset.index])) {
      if (skip) continue;
      throw badRequest(
        `Invalid value for "${by}": ${by === 'id' ? item : `"${item}"`} is not a known cryptocurrency ${by}; send skip_invalid=true to leave unknown ones out.`,
      );
    }
    if (!assets.includes(asset)) assets.push(asset);
  }
  return { by, assets };
}

/** `data` keyed as the v2 endpoints key it: by id, or by symbol with a list per symbol. `records` are the assets' JSON, in order. */
export function keyedJson(by: NamedBy, assets: readonly Asset[], records: readonly string[]): string {
  const entries = assets.map((a, i) =>
    by === 'symbol' ? `${JSON.stringify(a.symbol)}:[${records[i]}]` : `"${a.id}":${records[i]}`,
  );
  return `{${entries.join(',')}}`;
}
