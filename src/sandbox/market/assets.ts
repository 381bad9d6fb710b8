/**
 * The sandbox's assets, parsed once from asset-list.ts into typed records with lookups by id, slug
 * and symbol. Fiat currencies (for `convert`) live in fiat.ts.
 */
import { ASSET_TABLE } from './asset-list.js';
import { seedOf } from './noise.js';

export type Peg =
  | { kind: 'free' }
  | { kind: 'usd' }
  | { kind: 'gold' }
  | { kind: 'wrapped'; underlying: number; ratio: number };

export interface Asset {
  /** Position in ASSETS: the model keeps per-asset figures in arrays indexed by it. */
  index: number;
  id: number;
  name: string;
  symbol: string;
  slug: string;
  /** Slug of the asset whose chain carries this token; null for a coin. */
  platform: string | null;
  /** Price in USD at the model's reference date. */
  basePrice: number;
  /** Circulating supply at the reference date. */
  baseSupply: number;
  maxSupply: number | null;
  /** Unix seconds: the asset has no quotes before this. */
  dateAdded: number;
  peg: Peg;
  tags: readonly string[];
  /** Stablecoins and wrapped assets are left out of the altcoin season index. */
  stable: boolean;
  wrapped: boolean;
  seed: number;
}

function parsePeg(text: string, line: string): Peg {
  if (text === '-') return { kind: 'free' };
  if (text === 's') return { kind: 'usd' };
  if (text === 'g') return { kind: 'gold' };
  const wrapped = /^w:(\d+)(?::([\d.]+))?$/.exec(text);
  if (wrapped) return { kind: 'wrapped', underlying: Number(wrapped[1]), ratio: Number(wrapped[2] ?? 1) };
  throw new Error(`asset-list: bad peg "${text}" in: ${line}`);
}

function parseAssets(table: string): Asset[] {
  const rows = table
    .trim()
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return rows.map((line, index) => {
    const f = line.split('|');
    if (f.length !== 11) throw new Error(`asset-list: expected 11 fields in: ${line}`);
    // Each field is there (the length is checked); the defaults only tell the compiler so.
    const [
      id,
      name = '',
      symbol = '',
      slug = '',
      platform = '-',
      price,
      supply,
      max,
      added,
      peg = '',
      tags = '',
    ] = f;
    const parsedPeg = parsePeg(peg, line);
    return {
      index,
      id: Number(id),
      name,
      symbol,
      slug,
      platform: platform === '-' ? null : platform,
      basePrice: Number(price),
      baseSupply: Number(supply),
      maxSupply: max === '-' ? null : Number(max),
      dateAdded: Date.parse(`${added}T00:00:00Z`) / 1000,
      peg: parsedPeg,
      tags: tags.split(','),
      stable: parsedPeg.kind === 'usd',
      wrapped: parsedPeg.kind === 'wrapped',
      seed: seedOf(slug),
    };
  });
}

export const ASSETS: readonly Asset[] = parseAssets(ASSET_TABLE);

export const assetById: ReadonlyMap<number, Asset> = new Map(ASSETS.map((a) => [a.id, a]));
export const assetBySlug: ReadonlyMap<string, Asset> = new Map(ASSETS.map((a) => [a.slug, a]));
/** Symbols are unique in the sandbox (the real service's are not); matched case-insensitively. */
export const assetBySymbol: ReadonlyMap<string, Asset> = new Map(
  ASSETS.map((a) => [a.symbol.toUpperCase(), a]),
);

export const BITCOIN = assetById.get(1) as Asset;
export const ETHEREUM = assetById.get(1027) as Asset;

function checkTable(): void {
  if (assetById.size !== ASSETS.length) throw new Error('asset-list: duplicate id');
  if (assetBySlug.size !== ASSETS.length) throw new Error('asset-list: duplicate slug');
  if (assetBySymbol.size !== ASSETS.length) throw new Error('asset-list: duplicate symbol');
  for (const a of ASSETS) {
    if (!(a.basePrice > 0 && a.baseSupply > 0 && Number.isFinite(a.dateAdded))) {
      throw new Error(`asset-list: bad figures for ${a.slug}`);
    }
    if (a.platform !== null && !assetBySlug.has(a.platform))
      throw new Error(`asset-list: unknown platform ${a.platform}`);
    if (a.peg.kind === 'wrapped' && !assetById.has(a.peg.underlying))
      throw new Error(`asset-list: bad peg ${a.slug}`);
  }
}
checkTable();

/** A token's contract address: made up, but stable, and in the chain's usual form. */
export function tokenAddress(asset: Asset): string {
  let hex = '';
  for (let i = 0; hex.length < 40; i++)
    hex += ((asset.seed ^ Math.imul(i + 1, 0x9e3779b1)) >>> 0).toString(16).padStart(8, '0');
  if (asset.platform === 'solana') return base58(hex);
  if (asset.platform === 'tron') return `T${base58(hex).slice(0, 33)}`;
  return `0x${hex.slice(0, 40)}`;
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
function base58(hex: string): string {
  let out = '';
  for (let i = 0; i < 44; i++) out += BASE58[Number.parseInt(hex.charAt(i % hex.length), 16) * 3 + (i % 3)];
  return out;
}
