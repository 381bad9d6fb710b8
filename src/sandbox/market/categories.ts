/**
 * Categories are the assets' tags: each tag is a category of the assets that carry it, with figures
 * summed over the same snapshot the listings read. Ids are 24 hex digits, stable per tag.
 */
import { ASSETS } from './assets.js';
import { seedOf } from './noise.js';
import type { MarketState } from './snapshot.js';

export interface Category {
  id: string;
  tag: string;
  /** Indices of the assets with the tag, by Asset.index. */
  members: readonly number[];
}

function categoryId(tag: string): string {
  let hex = '';
  for (let k = 0; hex.length < 24; k++) hex += seedOf(`${tag}:${k}`).toString(16).padStart(8, '0');
  return hex.slice(0, 24);
}

export const CATEGORIES: readonly Category[] = [...new Set(ASSETS.flatMap((a) => a.tags))]
  .sort()
  .map((tag) => ({
    id: categoryId(tag),
    tag,
    members: ASSETS.filter((a) => a.tags.includes(tag)).map((a) => a.index),
  }));

export const categoryById: ReadonlyMap<string, Category> = new Map(CATEGORIES.map((c) => [c.id, c]));

export interface CategoryFigures {
  numTokens: number;
  avgPriceChange: number;
  marketCap: number;
  marketCapChange: number;
  volume: number;
  volumeChange: number;
}

/** A category's figures now against a day before: members listed now, changes in percent. */
export function categoryFigures(c: Category, now: MarketState, dayAgo: MarketState): CategoryFigures {
  const listed = c.members.filter((i) => now.listed[i]);
  let cap = 0;
  let capThen = 0;
  let volume = 0;
  let volumeThen = 0;
  let changes = 0;
  for (const i of listed) {
    cap += now.cap[i]!;
    capThen += dayAgo.cap[i]!;
    volume += now.volume[i]!;
    volumeThen += dayAgo.volume[i]!;
    changes += (now.price[i]! / dayAgo.price[i]! - 1) * 100;
  }
  const change = (a: number, b: number) => (b > 0 ? (a / b - 1) * 100 : 0);
  return {
    numTokens: listed.length,
    avgPriceChange: listed.length > 0 ? changes / listed.length : 0,
    marketCap: cap,
    marketCapChange: change(cap, capThen),
    volume,
    volumeChange: change(volume, volumeThen),
  };
}
