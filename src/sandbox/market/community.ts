/**
 * Community trending tokens and topics. People talk about what moves: a token's chance to trend
 * grows with its 24h move. The list changes every hour, the same for everyone.
 */
import { ASSETS } from './assets.js';
import { unit } from './noise.js';
import { marketAt } from './snapshot.js';
import { DAY, floorTo, HOUR } from './time.js';

export interface TrendingToken {
  id: number;
  name: string;
  symbol: string;
  slug: string;
  svc_rank: number;
  rank: number;
}

const TOKEN_SEED = 0x7e4d;
const TOPIC_SEED = 0x70b1c;

/** Up to `limit` trending tokens at t, chosen among the top 150 floating-price assets. */
export function trendingTokensAt(t: number, limit: number): TrendingToken[] {
  const hour = floorTo(t, HOUR);
  const now = marketAt(hour);
  const dayBefore = marketAt(hour - DAY);
  const scored: { i: number; score: number }[] = [];
  for (const i of now.order.subarray(0, 150)) {
    if (ASSETS[i]!.peg.kind !== 'free') continue;
    const move = dayBefore.listed[i] ? Math.abs(Math.log(now.price[i]! / dayBefore.price[i]!)) : 0;
    scored.push({ i, score: unit(TOKEN_SEED ^ ASSETS[i]!.id, hour / HOUR) + 4 * move });
  }
  scored.sort((x, y) => y.score - x.score);
  return scored.slice(0, limit).map(({ i }, position) => {
    const a = ASSETS[i]!;
    return {
      id: a.id,
      name: a.name,
      symbol: a.symbol,
      slug: a.slug,
      svc_rank: now.rank[i]!,
      rank: position + 1,
    };
  });
}

const TOPICS: readonly string[] = [
  'Bitcoin ETF flows',
  'Ethereum staking yields',
  'Solana memecoin season',
  'Stablecoin regulation',
  'Layer-2 fees',
  'Bitcoin halving cycle',
  'AI agents on-chain',
  'Real-world asset tokenization',
  'DeFi lending rates',
  'Restaking risks',
  'Exchange reserves',
  'Whale accumulation',
  'Airdrop farming',
  'Crypto tax season',
  'Altcoin rotation',
  'Fed rate decision',
  'DEX volume records',
  'NFT market recovery',
  'Cross-chain bridges',
  'Hardware wallet security',
  'Memecoin launchpads',
  'Proof of reserves',
  'Gaming tokens',
  'Bitcoin Layer-2s',
  'Validator decentralization',
];

/** Up to `limit` trending topics at t, in trending order. */
export function trendingTopicsAt(t: number, limit: number): { rank: number; topic: string }[] {
  const hour = floorTo(t, HOUR) / HOUR;
  return TOPICS.map((topic, k) => ({ topic, score: unit(TOPIC_SEED + k, hour) }))
    .sort((x, y) => y.score - x.score)
    .slice(0, limit)
    .map(({ topic }, position) => ({ rank: position + 1, topic }));
}
