/** News and articles, community posts (latest and top) and their comments, from market/content.ts. */

import type { Asset } from '../market/assets.js';
import {
  commentsOn,
  type Mention,
  NEWS_STEP,
  newsAt,
  POST_STEP,
  type Post,
  postAt,
  postById,
  recentSlots,
} from '../market/content.js';
import { DAY, iso } from '../market/time.js';
import { tagName } from '../records.js';
import type { content as endpoints } from '../service/index.js';
import { namedAssets } from './named.js';
import type { HandlerOf } from './types.js';

/** How far back the corpus is searched: 50 days of news, 30 days of posts. */
const NEWS_KEPT = 400;
const POSTS_KEPT = 30 * (DAY / POST_STEP);
const POSTS_PER_PAGE = 10;

function mentionJson(m: Mention) {
  return { id: m.asset.id, name: m.asset.name, symbol: m.asset.symbol, slug: m.asset.slug };
}

/** The assets a request filters by (id, slug or symbol lists), or undefined for none. */
function filterAssets(params: Record<string, unknown>): Asset[] | undefined {
  if (!['id', 'slug', 'symbol'].some((k) => params[k] !== undefined)) return undefined;
  return namedAssets(params, { skipByDefault: true }).assets;
}

const about = (mentions: readonly Mention[], wanted: Asset[] | undefined) =>
  wanted === undefined || mentions.some((m) => wanted.includes(m.asset));

/** Newest first; only English in the sandbox, so another language finds nothing. */
export const latestContent: HandlerOf<typeof endpoints.latestContent> = {
  envelope: 'standard',
  handle({ params, now }) {
    const p = params;
    const wanted = filterAssets(params);
    const newsTypes = (p.news_type ?? 'all').split(',');
    const contentTypes = (p.content_type ?? 'all').split(',');
    const categories = p.category?.split(',').map((c) => c.trim().toLowerCase());
    const items =
      (p.language ?? 'en') !== 'en'
        ? []
        : recentSlots(now, NEWS_STEP, NEWS_KEPT)
            .map(newsAt)
            .filter(
              (n) =>
                about(n.mentions, wanted) &&
                (newsTypes.includes('all') || newsTypes.includes(n.newsType)) &&
                (contentTypes.includes('all') || contentTypes.includes(n.contentType)) &&
                (categories === undefined || categories.includes(tagName(n.category).toLowerCase())),
            );
    const page = items.slice(p.start - 1, p.start - 1 + p.limit).map((n) => ({
      cover: `https://sandbox.svc.invalid/static/img/news/${n.t}.jpg`,
      assets: n.mentions.map(mentionJson),
      created_at: iso(n.t),
      released_at: iso(n.t),
      title: n.title,
      subtitle: n.subtitle,
      type: n.newsType,
      source_name: n.source,
      source_url: `https://news.example/${n.mentions[0]!.asset.slug}-${n.t}`,
    }));
    return { dataJson: JSON.stringify(page), items: page.length };
  },
};

/** A post as the service writes it: counts and times as strings, times in milliseconds. */
function postJson(post: Post) {
  return {
    post_id: post.id,
    comments_url: `/v1/content/posts/comments?post_id=${post.id}`,
    owner: {
      nickname: post.nickname,
      avatar_url: `https://sandbox.svc.invalid/static/img/avatars/${post.nickname}.png`,
    },
    text_content: post.text,
    photos: [],
    comment_count: String(post.comments),
    like_count: String(post.likes),
    ...(post.reposts === undefined ? {} : { repost_count: String(post.reposts) }),
    post_time: String(post.t * 1000),
    currencies: post.mentions.map((m) => ({ id: m.asset.id, symbol: m.asset.symbol, slug: m.asset.slug })),
    language_code: 'en',
  };
}

/** Newest first; last_score is the last post's time in milliseconds, and pages on from there. */
export const latestPosts: HandlerOf<typeof endpoints.latestPosts> = {
  envelope: 'standard',
  handle({ params, now }) {
    const wanted = filterAssets(params);
    const before =
      params.last_score === undefined ? Number.POSITIVE_INFINITY : Number(params.last_score) / 1000;
    const page: Post[] = [];
    for (const t of recentSlots(now, POST_STEP, POSTS_KEPT)) {
      if (page.length === POSTS_PER_PAGE) break;
      if (t >= before) continue;
      const post = postAt(t);
      if (about(post.mentions, wanted)) page.push(post);
    }
    const last = page.at(-1);
    const data = {
      list: page.map(postJson),
      last_score: last === undefined ? undefined : String(last.t * 1000),
    };
    return { dataJson: JSON.stringify(data), items: page.length };
  },
};

/** The week's posts by popularity; last_score is the last post's score, and pages on below it. */
export const topPosts: HandlerOf<typeof endpoints.topPosts> = {
  envelope: 'standard',
  handle({ params, now }) {
    const wanted = filterAssets(params);
    const below = params.last_score === undefined ? Number.POSITIVE_INFINITY : Number(params.last_score);
    const week = recentSlots(now, POST_STEP, 7 * (DAY / POST_STEP))
      .map(postAt)
      .filter((post) => about(post.mentions, wanted) && Number(post.score.toFixed(4)) < below)
      .sort((a, b) => b.score - a.score);
    const page = week.slice(0, POSTS_PER_PAGE);
    const last = page.at(-1);
    const data = {
      list: page.map(postJson),
      last_score: last === undefined ? undefined : last.score.toFixed(4),
    };
    return { dataJson: JSON.stringify(data), items: page.length };
  },
};

/** A post's comments; an id that is no post of the corpus has none. */
export const postComments: HandlerOf<typeof endpoints.postComments> = {
  envelope: 'standard',
  handle({ params, now }) {
    const post = postById(String(params.post_id), now);
    const comments = post === undefined ? [] : commentsOn(post, now);
    const data = comments.map((c) => ({
      post_id: c.id,
      owner: {
        nickname: c.nickname,
        avatar_url: `https://sandbox.svc.invalid/static/img/avatars/${c.nickname}.png`,
      },
      text_content: c.text,
      photos: [],
      comment_count: '0',
      like_count: String(c.likes),
      post_time: String(c.t * 1000),
      language_code: 'en',
    }));
    return { dataJson: JSON.stringify(data), items: data.length };
  },
};
