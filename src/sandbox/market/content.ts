/**
 * A small generated corpus: a news item every 3 hours and a community post every 15 minutes, each
 * about real assets and written from the model's own moves at that time ("Solana climbs 4.2%"),
 * with comments under each post. Every piece is a direct function of its time slot.
 */
import { ASSETS, type Asset, BITCOIN } from './assets.js';
import { priceAt } from './model.js';
import { unit } from './noise.js';
import { DAY, floorTo } from './time.js';

export const NEWS_STEP = 3 * 3_600;
export const POST_STEP = 900;
/** Pieces are about the largest assets: the first ones in the asset list. */
const TOPICAL = 60;

const NEWS_SEED = 0x6e3a5;
const POST_SEED = 0x9057;
const COMMENT_SEED = 0xc033e;

const TOPICS = [
  'ETF flows pick up',
  'traders rotate into large caps',
  'funding rates reset',
  'on-chain activity climbs',
  'a network upgrade nears',
  'exchange reserves fall',
  'whales accumulate',
  'macro data surprises',
  'open interest builds',
  'staking demand grows',
];
const SOURCES = ['Sandbox Daily', 'Block Wire', 'Chain Ledger News', 'Market Pulse'];
const NICKNAMES = [
  'satoshi_fan',
  'hodl_queen',
  'chartwatcher',
  'defi_dan',
  'moon_mia',
  'gas_saver',
  'ape_analyst',
  'node_runner',
];
const OPINIONS = [
  'Holding through the noise.',
  'Volume looks healthy here.',
  'Watching the next resistance.',
  'Taking some profit.',
  'Fundamentals unchanged.',
  'This is the dip I was waiting for.',
];

export interface Mention {
  asset: Asset;
  /** Percent change of its price over the day before the piece. */
  change: number;
  price: number;
}

/** A piece's assets: a lead, and maybe one more. */
type Mentions = [Mention, ...Mention[]];

/** The 1 or 2 assets a piece at t is about (listed by then), with their moves; Bitcoin when no draw is listed. */
function mentionsAt(seed: number, t: number): Mentions {
  const count = unit(seed, t + 1) < 0.3 ? 2 : 1;
  const out: Mention[] = [];
  for (let k = 0; out.length < count && k < 8; k++) {
    const asset = ASSETS[Math.floor(unit(seed, t * 4 + k) * TOPICAL)]!;
    if (asset.dateAdded > t - DAY || out.some((m) => m.asset === asset)) continue;
    out.push(mentionOf(asset, t));
  }
  const [lead = mentionOf(BITCOIN, t), ...rest] = out;
  return [lead, ...rest];
}

function mentionOf(asset: Asset, t: number): Mention {
  const price = priceAt(asset.index, t);
  return { asset, price, change: (price / priceAt(asset.index, t - DAY) - 1) * 100 };
}

const pct = (change: number) => `${Math.abs(change).toFixed(1)}%`;
/** Made once: toLocaleString with options makes a new format on every call. */
let cents: Intl.NumberFormat | undefined;
const usd = (price: number) => {
  cents ??= new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return `$${price >= 1 ? cents.format(price) : price.toPrecision(3)}`;
};
const pick = <T>(list: readonly T[], u: number): T => list[Math.floor(u * list.length)]!;

export interface NewsItem {
  t: number;
  mentions: Mentions;
  title: string;
  subtitle: string;
  newsType: 'news' | 'alexandria' | 'community';
  contentType: 'news' | 'video' | 'audio';
  category: string;
  source: string;
}

/** The news item of the slot starting at t (a multiple of NEWS_STEP). */
export function newsAt(t: number): NewsItem {
  const u = (k: number) => unit(NEWS_SEED + k, t / NEWS_STEP);
  const mentions = mentionsAt(NEWS_SEED, t);
  const [lead, other] = mentions;
  const verb =
    lead.change >= 0
      ? pick(['climbs', 'rallies', 'gains', 'rises'], u(1))
      : pick(['slips', 'falls', 'drops', 'retreats'], u(1));
  const kind = u(2);
  const newsType = kind < 0.7 ? 'news' : kind < 0.9 ? 'alexandria' : 'community';
  return {
    t,
    mentions,
    title: `${lead.asset.name} ${verb} ${pct(lead.change)} as ${pick(TOPICS, u(3))}`,
    subtitle: `${lead.asset.symbol} trades at ${usd(lead.price)}${other ? `; ${other.asset.symbol} ${other.change >= 0 ? 'up' : 'down'} ${pct(other.change)}` : ''}.`,
    newsType,
    contentType: u(4) < 0.8 ? 'news' : u(4) < 0.92 ? 'video' : 'audio',
    category: lead.asset.tags[0] ?? 'news',
    source: newsType === 'alexandria' ? 'Alexandria' : pick(SOURCES, u(5)),
  };
}

export interface Post {
  t: number;
  id: string;
  nickname: string;
  mentions: Mentions;
  text: string;
  likes: number;
  comments: number;
  /** Some posts come without a repost count, as real ones do. */
  reposts: number | undefined;
  /** Popularity, for the top posts. */
  score: number;
}

/** The post of the slot at t (a multiple of POST_STEP); its id is t. */
export function postAt(t: number): Post {
  const u = (k: number) => unit(POST_SEED + k, t / POST_STEP);
  const mentions = mentionsAt(POST_SEED, t);
  const [lead] = mentions;
  const heat = 1 + Math.abs(lead.change) / 4;
  const likes = Math.floor(u(1) * 150 * heat);
  const comments = Math.floor(u(2) * 12);
  const reposts = u(3) < 0.15 ? undefined : Math.floor(u(4) * 6 * heat);
  const tags = mentions.map((m) => `$${m.asset.symbol}`).join(' ');
  return {
    t,
    id: String(t),
    nickname: `${pick(NICKNAMES, u(5))}${Math.floor(u(6) * 90) + 10}`,
    mentions,
    text: `${tags} at ${usd(lead.price)}, ${lead.change >= 0 ? 'up' : 'down'} ${pct(lead.change)} today. ${pick(OPINIONS, u(7))}`,
    likes,
    comments,
    reposts,
    score: likes + 3 * comments + 2 * (reposts ?? 0) + u(8),
  };
}

/** The post with this id, if it is one of the corpus's (a past slot). */
export function postById(id: string, now: number): Post | undefined {
  const t = Number(id);
  return Number.isSafeInteger(t) && t % POST_STEP === 0 && t <= now && t > now - 365 * DAY
    ? postAt(t)
    : undefined;
}

export interface Comment {
  id: string;
  nickname: string;
  text: string;
  likes: number;
  t: number;
}

/** A post's comments, oldest first, each some minutes after the last, none after now. */
export function commentsOn(post: Post, now: number): Comment[] {
  const out: Comment[] = [];
  for (let j = 0; j < post.comments; j++) {
    const u = (k: number) => unit(COMMENT_SEED + k, post.t + j);
    const t = post.t + (j + 1) * 420;
    if (t > now) break;
    const lead = post.mentions[0]!.asset.symbol;
    out.push({
      id: String(post.t + j + 1),
      nickname: `${pick(NICKNAMES, u(1))}${Math.floor(u(2) * 90) + 10}`,
      text: pick(
        [
          `Agreed on ${lead}.`,
          `Not so sure about ${lead} here.`,
          'Thanks for sharing.',
          `What is your target for ${lead}?`,
        ],
        u(3),
      ),
      likes: Math.floor(u(4) * 20),
      t,
    });
  }
  return out;
}

/** Slots of `step` at or before now, newest first: `count` of them. */
export function recentSlots(now: number, step: number, count: number): number[] {
  const last = floorTo(now, step);
  return Array.from({ length: count }, (_, k) => last - k * step);
}
