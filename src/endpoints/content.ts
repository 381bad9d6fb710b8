/** Content: news and articles, and the community's posts and their comments. */
import { z } from 'zod';
import { isoOf } from '../calendar.js';
import { counted, formatTime, lines } from '../format/text.js';
import { perCall } from '../kit/credits.js';
import { dataOf, defineEndpoint, parseBody } from '../kit/define.js';
import { lenient } from '../kit/lenient.js';
import { offsetPages } from '../kit/pages.js';
import { enumParam, namesListParam, paramsObject } from '../kit/params.js';
import { plansFrom } from '../kit/plans.js';
import { recordsOf } from '../kit/shapes.js';
import {
  assetsAsked,
  idsParam,
  noneAbout,
  oneId,
  oneSlug,
  oneSymbol,
  pageParams,
  servicePage,
  slugsParam,
  symbolsParam,
} from './asset-params.js';

const PLANS = plansFrom('standard');
const FREE = perCall(0);
const LANGUAGES = [
  ...['en', 'zh', 'zh-tw', 'de', 'id', 'ja', 'ko', 'es', 'th', 'tr', 'vi'],
  ...['ru', 'fr', 'nl', 'ar', 'pt-br', 'hi', 'pl', 'uk', 'fil-rph', 'it'],
] as const;

/** One line of text, at most `max` characters. */
function excerpt(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

// ---------------------------------------------------------------- news and articles

const mention = z.object({
  id: z.number(),
  symbol: z.string(),
  name: z.string().optional(),
  slug: z.string().optional(),
});
const article = z.object({
  title: z.string(),
  subtitle: z.string().optional(),
  type: z.string().optional().describe('news, community, alexandria, …'),
  source_name: z.string().optional(),
  source_url: z.string().optional(),
  cover: z.string().optional(),
  created_at: z.string().optional(),
  released_at: z.string().optional(),
  assets: z.array(mention).optional().describe('Assets the piece is about'),
});
const upstreamArticle = lenient(article);

export const latestContent = defineEndpoint({
  name: 'get_latest_content',
  rowName: 'item',
  title: 'Latest crypto news and articles',
  toolset: 'content',
  inDefault: true,
  path: '/v1/content/latest',
  summary: 'Latest crypto news today: headlines, articles and videos, overall or about given coins.',
  input: paramsObject({
    ...pageParams(200, 10),
    id: idsParam,
    slug: slugsParam,
    symbol: symbolsParam,
    news_type: namesListParam(['news', 'community', 'alexandria', 'all'], 'Default all.'),
    content_type: namesListParam(['audio', 'news', 'video', 'all'], 'Default all.'),
    // Names may hold spaces ("Layer 1"): only the spaces around commas are dropped.
    category: z
      .string()
      .overwrite((value) => value.trim().replace(/\s*,\s*/g, ','))
      .regex(/^[\w .&-]+(,[\w .&-]+)*$/, { message: 'must be category names separated by commas' })
      .max(500)
      .optional()
      .describe('Category names, e.g. GameFi, NFT.'),
    language: enumParam(LANGUAGES, 'Default en.').optional(),
  }),
  serviceParams: { ...servicePage(200, 100) },
  output: z.object({ start: z.number(), items: z.array(article) }),
  credits: FREE,
  pages: offsetPages({ fixed: 700, perCurrency: 0 }),
  refreshSeconds: 300,
  plans: PLANS,
  normalise(body, params) {
    return { start: params.start, items: recordsOf(upstreamArticle, dataOf(body)) };
  },
  summarise(data, params) {
    if (data.items.length === 0) return noneAbout('news', params) ?? `No content from start=${data.start}.`;
    return lines(
      `Latest content, ${counted(data.items.length, 'item')} from start=${data.start}:`,
      ...data.items.map((a) => {
        const about = (a.assets ?? []).map((m) => m.symbol).slice(0, 5);
        return `- ${formatTime(a.released_at ?? a.created_at)} · ${excerpt(a.title, 140)}${a.source_name ? ` — ${a.source_name}` : ''}${about.length > 0 ? ` (${about.join(', ')})` : ''}${a.source_url ? ` ${a.source_url}` : ''}`;
      }),
    );
  },
});

// ---------------------------------------------------------------- posts and comments

const owner = z.object({ nickname: z.string(), avatar_url: z.string().optional() });
const comment = z.object({
  owner,
  text_content: z.string(),
  photos: z.array(z.string()).optional(),
  comment_count: z.number().optional(),
  like_count: z.number().optional(),
  post_time: z.string().describe('ISO 8601'),
  language_code: z.string().optional(),
});
const post = comment.extend({
  post_id: z.string().describe('For get_post_comments'),
  repost_count: z.number().optional(),
  currencies: z
    .array(mention.partial({ id: true }))
    .optional()
    .describe('Assets the post mentions'),
});
const postTime = (r: Record<string, unknown>) =>
  typeof r.post_time === 'string' || typeof r.post_time === 'number' ? isoOf(r.post_time) : r.post_time;
const fromMs = { post_time: postTime };
const upstreamComment = lenient(comment, fromMs);
const upstreamPosts = lenient(z.object({ list: z.array(post), last_score: z.string().optional() }), {
  list: z.array(lenient(post, fromMs)),
});

function postLine(p: z.infer<typeof comment> & { post_id?: string }, chars = 200): string {
  const counts = [
    p.like_count ? counted(p.like_count, 'like') : '',
    p.comment_count ? counted(p.comment_count, 'comment') : '',
  ].filter(Boolean);
  return `- ${formatTime(p.post_time)} ${p.owner.nickname}${p.post_id ? ` [post ${p.post_id}]` : ''}: ${excerpt(p.text_content, chars)}${counts.length > 0 ? ` (${counts.join(', ')})` : ''}`;
}

/** " about symbol BTC", when the posts were asked about an asset. */
function about(params: { id?: unknown; slug?: unknown; symbol?: unknown }): string {
  const asked = assetsAsked(params);
  return asked === undefined ? '' : ` about ${asked}`;
}

function postsEndpoint<const N extends string>(spec: {
  name: N;
  title: string;
  path: string;
  summary: string;
  cursor: string;
  /** What the posts are and their order, as the answer's first line says: "top", "most popular first". */
  heading: readonly [string, string];
}) {
  return defineEndpoint({
    name: spec.name,
    title: spec.title,
    toolset: 'content',
    path: spec.path,
    summary: spec.summary,
    input: paramsObject({
      id: oneId.describe('Only posts about this asset id.'),
      slug: oneSlug.describe('Only posts about this slug.'),
      symbol: oneSymbol.describe('Only posts about this symbol.'),
      last_score: z
        .string()
        .regex(/^\d+(\.\d+)?$/, { message: `must be the last_score of a previous answer (${spec.cursor})` })
        .max(40)
        .optional()
        .describe(`The next page: last_score from the previous answer (${spec.cursor}).`),
    }),
    output: z.object({
      last_score: z.string().optional().describe('Pass as last_score for the next page'),
      items: z.array(post),
    }),
    rows: { list: 'items' },
    rowName: 'post',
    credits: FREE,
    refreshSeconds: 300,
    plans: PLANS,
    normalise(body) {
      const { list, last_score } = parseBody(upstreamPosts, dataOf(body));
      return { last_score, items: list };
    },
    summarise(data, params) {
      if (data.items.length === 0) return noneAbout('posts', params) ?? 'No posts.';
      // Every post of the page, shorter when there are many: the next page starts after the last.
      const chars = Math.max(80, Math.floor(2400 / data.items.length));
      return lines(
        `${counted(data.items.length, `${spec.heading[0]} post`)}${about(params)}, ${spec.heading[1]}:`,
        ...data.items.map((p) => postLine(p, chars)),
        data.last_score && `More: last_score=${data.last_score}.`,
      );
    },
  });
}

export const latestPosts = postsEndpoint({
  name: 'get_latest_posts',
  title: 'Latest community posts',
  path: '/v1/content/posts/latest',
  summary: 'The newest community posts, overall or about one asset.',
  cursor: 'a time',
  heading: ['latest', 'newest first'],
});

export const topPosts = postsEndpoint({
  name: 'get_top_posts',
  title: 'Top community posts',
  path: '/v1/content/posts/top',
  summary: 'The most popular community posts, overall or about one asset.',
  cursor: 'a score',
  heading: ['top', 'most popular first'],
});

export const postComments = defineEndpoint({
  name: 'get_post_comments',
  rowName: 'comment',
  title: 'Comments on a post',
  toolset: 'content',
  path: '/v1/content/posts/comments',
  summary: 'The comments on one community post.',
  input: paramsObject({
    post_id: z
      .string()
      .regex(/^\d+$/, { message: 'must be a numeric post id, e.g. "317807035"' })
      .max(30)
      .describe('The post id.'),
  }),
  output: z.object({ post_id: z.string(), items: z.array(comment) }),
  rows: { list: 'items' },
  credits: FREE,
  refreshSeconds: 300,
  plans: PLANS,
  normalise(body, params) {
    return { post_id: params.post_id, items: recordsOf(upstreamComment, dataOf(body)) };
  },
  summarise(data) {
    if (data.items.length === 0) return `No comments on post ${data.post_id}.`;
    return lines(
      `${counted(data.items.length, 'comment')} on post ${data.post_id}:`,
      ...data.items.map((c) => postLine(c)),
    );
  },
});
