/** Community trending: the tokens and the topics people are talking about. */
import { z } from 'zod';
import { formatNumber } from '../format/numbers.js';
import { lines, table } from '../format/text.js';
import { perCall } from '../kit/credits.js';
import { dataOf, defineEndpoint, parseBody } from '../kit/define.js';
import { lenient } from '../kit/lenient.js';
import { intParam, paramsObject } from '../kit/params.js';
import { plansFrom } from '../kit/plans.js';
import { rankOf, recordsOf } from '../kit/shapes.js';

const PLANS = plansFrom('standard');
const limitInput = paramsObject({
  limit: intParam(1, 5, 'Entries.').default(5),
});

const trendingToken = z.object({
  rank: z.number().describe('Position in the trending list'),
  id: z.number(),
  name: z.string(),
  symbol: z.string(),
  slug: z.string(),
  market_cap_rank: z.number().optional().describe('Overall rank by market cap'),
});

const upstreamToken = lenient(trendingToken, { market_cap_rank: rankOf });

export const trendingTokens = defineEndpoint({
  name: 'get_trending_community_tokens',
  rowName: 'token',
  title: 'Community trending tokens',
  toolset: 'community',
  inDefault: true,
  path: '/v1/community/trending/token',
  summary:
    'Coins and tokens people talk about most now: trending in the crypto community, social media, most discussed.',
  input: limitInput,
  output: z.object({ items: z.array(trendingToken) }),
  rows: { list: 'items' },
  credits: perCall(0),
  refreshSeconds: 60,
  plans: PLANS,
  normalise(body) {
    const items = parseBody(z.array(upstreamToken), dataOf(body));
    return { items: items.sort((a, b) => a.rank - b.rank) };
  },
  summarise(data) {
    if (data.items.length === 0) return 'No trending community tokens right now.';
    return lines(
      `Trending in the community: ${data.items.map((t) => t.symbol).join(', ')}`,
      table(
        ['#', 'Token', 'Market-cap rank'],
        data.items.map((t) => [String(t.rank), `${t.name} (${t.symbol})`, formatNumber(t.market_cap_rank)]),
      ),
    );
  },
});

const topic = z.object({ rank: z.number(), topic: z.string() });
const upstreamTopic = lenient(topic);

export const trendingTopics = defineEndpoint({
  name: 'get_trending_community_topics',
  rowName: 'topic',
  title: 'Community trending topics',
  toolset: 'community',
  inDefault: true,
  path: '/v1/community/trending/topic',
  summary: 'Topics, themes, narratives the crypto community discusses most now: hot conversations.',
  input: limitInput,
  output: z.object({ items: z.array(topic) }),
  rows: { list: 'items' },
  credits: perCall(0),
  refreshSeconds: 60,
  plans: PLANS,
  normalise(body) {
    // The documented sample answers one object; real answers are lists. Accept both.
    return { items: recordsOf(upstreamTopic, dataOf(body)).sort((a, b) => a.rank - b.rank) };
  },
  summarise(data) {
    if (data.items.length === 0) return 'No trending community topics right now.';
    return lines('Trending community topics:', ...data.items.map((t) => `${t.rank}. ${t.topic}`));
  },
});
