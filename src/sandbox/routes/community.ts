/** Community trending tokens and topics. */

import { trendingTokensAt, trendingTopicsAt } from '../market/community.js';
import type { community as endpoints } from '../service/index.js';
import type { HandlerOf } from './types.js';

export const trendingTokens: HandlerOf<typeof endpoints.trendingTokens> = {
  envelope: 'string-code',
  handle({ params, now }) {
    const tokens = trendingTokensAt(now, params.limit);
    return { dataJson: JSON.stringify(tokens), items: tokens.length };
  },
};

/**
 * The spec's sample answers a single {rank, topic} object; real answers are lists. The sandbox
 * answers the object for limit=1 and a list otherwise, so that clients meet both shapes.
 */
export const trendingTopics: HandlerOf<typeof endpoints.trendingTopics> = {
  envelope: 'string-code',
  handle({ params, now }) {
    const topics = trendingTopicsAt(now, params.limit);
    return { dataJson: JSON.stringify(topics.length === 1 ? topics[0] : topics), items: topics.length };
  },
};
