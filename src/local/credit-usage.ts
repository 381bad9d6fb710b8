/** What this server's credit guard counts for the caller's key: spent, left, by tool, cache savings. */

import { formatNumber } from '../format/numbers.js';
import { counted, formatTime, lines, table } from '../format/text.js';
import { WINDOW_WORDS } from '../kit/credits.js';
import { defineLocalTool } from '../kit/define.js';
import { paramsObject } from '../kit/params.js';
import { creditUsageFigures } from '../kit/usage-figures.js';

export const creditUsage = defineLocalTool({
  name: 'get_credit_usage',
  title: 'Credit usage',
  toolset: 'account',
  inDefault: true,
  summary:
    "What did I spend: this server's credit budget for your key, credits spent and left, which tools used most, cache savings. Plan limits: get_key_info.",
  input: paramsObject({}),
  output: creditUsageFigures,
  data: (_params, context) => context.usage(),
  summarise(u) {
    const tools = Object.entries(u.by_tool).sort(([, a], [, b]) => b.credits - a.credits);
    const period = WINDOW_WORDS[u.window];
    return lines(
      u.problem,
      u.budget === null
        ? `Credits ${period}: ${formatNumber(u.spent)} spent, no budget set (SVC_CREDIT_BUDGET)`
        : `Credits ${period}: ${formatNumber(u.spent)} of ${formatNumber(u.budget)} spent, ${formatNumber(u.left)} left${u.reserved > 0 ? `, ${formatNumber(u.reserved)} held by calls in flight` : ''}`,
      u.you &&
        (u.you.budget === null
          ? `Yours ${WINDOW_WORDS[u.you.window]}: ${formatNumber(u.you.spent)} spent.`
          : `Yours ${WINDOW_WORDS[u.you.window]}: ${formatNumber(u.you.spent)} of your ${formatNumber(u.you.budget)} spent, ${formatNumber(u.you.left)} left.`),
      u.resets_at !== null && `The window rolls at ${formatTime(u.resets_at)}.`,
      `${counted(u.cache_hits, 'cache hit')} saved ${counted(u.credits_saved, 'credit')}; at most ${counted(u.max_credits_per_call, 'credit')} per call.`,
      tools.length > 0 &&
        table(
          ['Tool', 'Calls', 'Credits', 'Cache hits'],
          // Every call of the tool, those the cache answered too (by_tool's calls are the others).
          tools
            .slice(0, 15)
            .map(([name, f]) => [
              name,
              String(f.calls + f.cache_hits),
              String(f.credits),
              String(f.cache_hits),
            ]),
        ),
      u.people &&
        table(
          ['Person', 'Spent', 'Left'],
          u.people.map((p) => [p.person, String(p.spent), p.left === null ? '-' : String(p.left)]),
        ),
    );
  },
});
