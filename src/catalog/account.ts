/** The account: what the service reports about the key itself (its plan, limits and usage). */
import { z } from 'zod';
import { formatNumber } from '../format/numbers.js';
import { formatTime, lines } from '../format/text.js';
import { perCall } from './credits.js';
import { ALL_PLANS, dataOf, defineEndpoint, looseNumber, parseBody } from './define.js';
import { paramsObject } from './params.js';

const count = looseNumber.optional();
const upstreamKeyInfo = z.looseObject({
  plan: z
    .looseObject({
      credit_limit_monthly: count,
      credit_limit_monthly_reset: z.string().optional(),
      credit_limit_monthly_reset_timestamp: z.string().optional(),
      credit_limit_daily: count,
      credit_limit_daily_reset: z.string().optional(),
      credit_limit_daily_reset_timestamp: z.string().optional(),
      rate_limit_minute: count,
    })
    .optional(),
  usage: z
    .looseObject({
      current_minute: z.looseObject({ requests_made: count, requests_left: count }).optional(),
      current_day: z.looseObject({ credits_used: count, credits_left: count }).optional(),
      current_month: z.looseObject({ credits_used: count, credits_left: count }).optional(),
    })
    .optional(),
});

const credits = z.object({ used: z.number().optional(), left: z.number().optional() });

/** The guard's figures for this key, next to the service's (see get_credit_usage). */
export const guardFigures = z.object({
  window: z.string(),
  budget: z.number().nullable().describe('Credits allowed per window; null when no budget is set'),
  spent: z.number(),
  left: z.number().nullable(),
  resets_at: z.string().nullable(),
});

export const keyInfo = defineEndpoint({
  name: 'get_key_info',
  title: 'API key info',
  toolset: 'account',
  path: '/v1/key/info',
  summary:
    'The API key\'s plan, rate limit and credit usage as the service reports them (this minute, today, this month, and when the monthly allowance resets), next to this server\'s own credit budget. Use it for "how many credits do I have left".',
  input: paramsObject({}),
  output: z.object({
    credit_limit_monthly: z.number().optional(),
    credit_limit_monthly_reset_at: z.string().optional(),
    credit_limit_daily: z.number().optional().describe('Older plans only'),
    credit_limit_daily_reset_at: z.string().optional(),
    rate_limit_minute: z.number().optional(),
    minute: z.object({ requests_made: z.number().optional(), requests_left: z.number().optional() }),
    day: credits,
    month: credits,
    guard: guardFigures.optional(),
  }),
  credits: perCall(0, { text: 'free (0 credits; counts toward the per-minute request limit)' }),
  refreshSeconds: 0,
  plans: ALL_PLANS,
  withGuardFigures: true,
  normalise(body) {
    const { plan = {}, usage = {} } = parseBody(upstreamKeyInfo, dataOf(body));
    return {
      credit_limit_monthly: plan.credit_limit_monthly,
      credit_limit_monthly_reset_at: plan.credit_limit_monthly_reset_timestamp,
      credit_limit_daily: plan.credit_limit_daily,
      credit_limit_daily_reset_at: plan.credit_limit_daily_reset_timestamp,
      rate_limit_minute: plan.rate_limit_minute,
      minute: {
        requests_made: usage.current_minute?.requests_made,
        requests_left: usage.current_minute?.requests_left,
      },
      day: { used: usage.current_day?.credits_used, left: usage.current_day?.credits_left },
      month: { used: usage.current_month?.credits_used, left: usage.current_month?.credits_left },
    };
  },
  summarise(data) {
    const guard = data.guard;
    return lines(
      `Credits this month: ${formatNumber(data.month.used)} used, ${formatNumber(data.month.left)} left of ${formatNumber(data.credit_limit_monthly)} (resets ${formatTime(data.credit_limit_monthly_reset_at)})`,
      `Today: ${formatNumber(data.day.used)} used, ${formatNumber(data.day.left)} left${data.credit_limit_daily !== undefined ? ` of ${formatNumber(data.credit_limit_daily)} (resets ${formatTime(data.credit_limit_daily_reset_at)})` : ''}`,
      `This minute: ${formatNumber(data.minute.requests_made)} requests made, ${formatNumber(data.minute.requests_left)} left of ${formatNumber(data.rate_limit_minute)}`,
      guard &&
        `This server's budget (${guard.window}): ${guard.budget === null ? `no budget set, ${formatNumber(guard.spent)} spent` : `${formatNumber(guard.spent)} of ${formatNumber(guard.budget)} spent, ${formatNumber(guard.left)} left`}${guard.resets_at ? `, resets ${formatTime(guard.resets_at)}` : ''}`,
    );
  },
});
