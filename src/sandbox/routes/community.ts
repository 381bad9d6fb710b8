/** Community trending tokens and topics, and the DEX platforms. */
import { badRequest } from '../envelope.js';
import { trendingTokensAt, trendingTopicsAt } from '../market/community.js';
import { DEX_PLATFORMS, findPlatform } from '../market/platforms.js';
import type { Handler } from './types.js';

export const trendingTokens: Handler = {
  envelope: 'string-code',
  handle({ params, now }) {
    const tokens = trendingTokensAt(now, params.limit as number);
    return { dataJson: JSON.stringify(tokens), items: tokens.length };
  },
};

/**
 * The spec's sample answers a single {rank, topic} object; real answers are lists. The sandbox
 * answers the object for limit=1 and a list otherwise, so that clients meet both shapes.
 */
export const trendingTopics: Handler = {
  envelope: 'string-code',
  handle({ params, now }) {
    const topics = trendingTopicsAt(now, params.limit as number);
    return { dataJson: JSON.stringify(topics.length === 1 ? topics[0] : topics), items: topics.length };
  },
};

const PLATFORMS_JSON = JSON.stringify(DEX_PLATFORMS);

/** Bare answers (spec): the platform array or object without a {data, status} wrapper. */
export const dexPlatformList: Handler = {
  envelope: 'bare',
  handle() {
    return { dataJson: PLATFORMS_JSON, items: DEX_PLATFORMS.length };
  },
};

export const dexPlatformDetail: Handler = {
  envelope: 'bare',
  handle({ params }) {
    const name = params.platformName as string;
    const platform = findPlatform(name);
    if (!platform) {
      throw badRequest(
        `Invalid value for "platformName": "${name}" is not a known platform. Known platforms: ${DEX_PLATFORMS.map((p) => p.n).join(', ')}.`,
      );
    }
    return { dataJson: JSON.stringify(platform), items: 1 };
  },
};
