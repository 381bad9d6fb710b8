/** The key: what the service reports about it (its plan, limits and usage), beside this server's budget. */
import { z } from 'zod';
import { formatNumber } from '../format/numbers.js';
import { counted, formatTime, lines } from '../format/text.js';
import { perCall } from '../kit/credits.js';
import { dataOf, defineEndpoint, parseBody } from '../kit/define.js';
import { lenient } from '../kit/lenient.js';
import { paramsObject } from '../kit/params.js';
import { ALL_PLANS } from '../kit/plans.js';
import { guardFigures } from '../kit/usage-figures.js';

const credits = z.object({ used: z.number().optional(), left: z.number().optional() });

const keyInfoOutput = z.object({
  credit_limit_monthly: z.number().optional(),
  credit_limit_monthly_reset_at: z.string().optional(),
  credit_limit_daily: z.number().optional().describe('Older plans only'),
  credit_limit_daily_reset_at: z.string().optional(),
  rate_limit_minute: z.number().optional(),
  minute: z.object({ requests_made: z.number().optional(), requests_left: z.number().optional() }),
  day: credits,
  month: credits,
  guard: guardFigures.optional(),
});

/** A usage block the answer may leave out reads as empty. */
function block(path: string, schema: z.ZodType<object>): readonly [string, z.ZodType] {
  return [path, schema.optional().transform((v) => v ?? {})];
}
const creditsBlock = lenient(credits, { used: 'credits_used', left: 'credits_left' });

/** The service nests the figures under `plan` and `usage`; the answer flattens them. */
const upstreamKeyInfo = lenient(keyInfoOutput.omit({ guard: true }), {
  credit_limit_monthly: 'plan.credit_limit_monthly',
  credit_limit_monthly_reset_at: 'plan.credit_limit_monthly_reset_timestamp',
  credit_limit_daily: 'plan.credit_limit_daily',
  credit_limit_daily_reset_at: 'plan.credit_limit_daily_reset_timestamp',
  rate_limit_minute: 'plan.rate_limit_minute',
  minute: block('usage.current_minute', lenient(keyInfoOutput.shape.minute)),
  day: block('usage.current_day', creditsBlock),
  month: block('usage.current_month', creditsBlock),
});

export const keyInfo = defineEndpoint({
  name: 'get_key_info',
  title: 'API key info',
  toolset: 'account',
  inDefault: true,
  path: '/v1/key/info',
  summary:
    "Am I close to my monthly credit limit? Your API key's plan, rate limit, and credits used and left today and this month. Spent here: get_credit_usage.",
  input: paramsObject({}),
  output: keyInfoOutput,
  credits: perCall(0, { text: 'free (counts toward the rate limit)' }),
  refreshSeconds: 0,
  plans: ALL_PLANS,
  async complete(data, context) {
    const { window, budget, spent, left, resets_at } = await context.usage();
    return { ...data, guard: { window, budget, spent, left, resets_at } };
  },
  normalise(body) {
    return parseBody(upstreamKeyInfo, dataOf(body));
  },
  summarise(data) {
    const guard = data.guard;
    return lines(
      `Credits this month: ${formatNumber(data.month.used)} used, ${formatNumber(data.month.left)} left of ${formatNumber(data.credit_limit_monthly)} (resets ${formatTime(data.credit_limit_monthly_reset_at)})`,
      `Today: ${formatNumber(data.day.used)} used, ${formatNumber(data.day.left)} left${data.credit_limit_daily !== undefined ? ` of ${formatNumber(data.credit_limit_daily)} (resets ${formatTime(data.credit_limit_daily_reset_at)})` : ''}`,
      `This minute: ${counted(data.minute.requests_made ?? 0, 'request')} made, ${formatNumber(data.minute.requests_left)} left of ${formatNumber(data.rate_limit_minute)}`,
      guard &&
        `This server's budget (${guard.window}): ${guard.budget === null ? `no budget set, ${formatNumber(guard.spent)} spent` : `${formatNumber(guard.spent)} of ${formatNumber(guard.budget)} spent, ${formatNumber(guard.left)} left`}${guard.resets_at ? `, resets ${formatTime(guard.resets_at)}` : ''}`,
    );
  },
});
