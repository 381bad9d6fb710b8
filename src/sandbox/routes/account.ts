/** Key info: the key's plan limits and live usage. */

import { iso } from '../market/time.js';
import type { account as endpoints } from '../service/index.js';
import { REQUESTS_PER_MINUTE } from '../service/plans.js';
import type { HandlerOf } from './types.js';

function untilText(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3_600);
  const minutes = Math.floor((seconds % 3_600) / 60);
  const unit = (n: number, name: string) => `${n} ${name}${n === 1 ? '' : 's'}`;
  return `In ${unit(days, 'day')}, ${unit(hours, 'hour')}, ${unit(minutes, 'minute')}`;
}

/** §8: plan limits and live usage; costs nothing but counts toward the minute limit. */
export const keyInfo: HandlerOf<typeof endpoints.keyInfo> = {
  envelope: 'standard',
  handle({ now, plan, key, ledger, windows }) {
    const usage = ledger.snapshot(key, plan, windows);
    const d = new Date(now * 1000);
    const nextMonth = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000;
    const data = {
      plan: {
        credit_limit_monthly: ledger.monthlyLimit(plan),
        credit_limit_monthly_reset: untilText(nextMonth - now),
        credit_limit_monthly_reset_timestamp: iso(nextMonth),
        rate_limit_minute: REQUESTS_PER_MINUTE[plan],
      },
      usage: {
        current_minute: { requests_made: usage.requestsMade, requests_left: usage.requestsLeft },
        // No separate daily cap: what is left today is what is left of the month.
        current_day: { credits_used: usage.dayCredits, credits_left: usage.monthLeft },
        current_month: { credits_used: usage.monthCredits, credits_left: usage.monthLeft },
      },
    };
    return { dataJson: JSON.stringify(data), items: 1 };
  },
};
