/**
 * The account: what the service reports about the key itself (its plan, limits and usage), and
 * what this server's credit guard counts for it.
 */
import { z } from 'zod';
import { formatNumber } from '../format/numbers.js';
import { counted, formatTime, lines, table } from '../format/text.js';
import { CREDIT_WINDOWS, perCall } from './credits.js';
import { dataOf, defineEndpoint, defineLocalTool, parseBody } from './define.js';
import { lenient } from './lenient.js';
import { paramsObject } from './params.js';
import { ALL_PLANS } from './plans.js';
import { creditUsageFigures, guardFigures } from './usage-figures.js';

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

const periods = { day: 'today', month: 'this month', total: 'in total' } as const;

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
    const period = periods[u.window];
    return lines(
      u.problem,
      u.budget === null
        ? `Credits ${period}: ${formatNumber(u.spent)} spent, no budget set (SVC_CREDIT_BUDGET)`
        : `Credits ${period}: ${formatNumber(u.spent)} of ${formatNumber(u.budget)} spent, ${formatNumber(u.left)} left${u.reserved > 0 ? `, ${formatNumber(u.reserved)} held by calls in flight` : ''}`,
      u.you &&
        (u.you.budget === null
          ? `Yours ${periods[u.you.window]}: ${formatNumber(u.you.spent)} spent.`
          : `Yours ${periods[u.you.window]}: ${formatNumber(u.you.spent)} of your ${formatNumber(u.you.budget)} spent, ${formatNumber(u.you.left)} left.`),
      u.resets_at !== null && `The window rolls at ${formatTime(u.resets_at)}.`,
      `${counted(u.cache_hits, 'cache hit')} saved ${counted(u.credits_saved, 'credit')}; at most ${counted(u.max_credits_per_call, 'credit')} per call.`,
      tools.length > 0 &&
        table(
          ['Tool', 'Calls', 'Credits', 'Cache hits'],
          tools
            .slice(0, 15)
            .map(([name, f]) => [name, String(f.calls), String(f.credits), String(f.cache_hits)]),
        ),
      u.people &&
        table(
          ['Person', 'Spent', 'Left'],
          u.people.map((p) => [p.person, String(p.spent), p.left === null ? '-' : String(p.left)]),
        ),
    );
  },
});

/** Said of a planned call that repeats an earlier one of the plan: the cache answers it. */
const REPEAT_NOTE = 'the same request as an earlier call of the plan: answered from the cache';

/** Planned calls one estimate takes: a task's worth, bounded like any list an answer carries. */
const MAX_PLANNED_CALLS = 50;

const plannedCall = z.object({
  tool: z.string(),
  credits: z.number().optional().describe('The estimate, after capping to one answer'),
  cached: z.boolean().optional().describe('Answered from the cache now: free'),
  plans: z.string().optional(),
  plan_has: z.boolean().nullable().optional().describe("Whether SVC_PLAN's plan has it; null: unknown"),
  within_limit: z.boolean().optional().describe('Within the per-call limit'),
  note: z.string().optional(),
  error: z.string().optional().describe('Why a real call would be refused before sending'),
});

/**
 * The plan's rows, identical ones once with how many there are (fifty of the same call make one
 * row): the tool, the calls, their credits in all, and why a call is free or would be refused.
 */
function plannedTable(calls: readonly z.output<typeof plannedCall>[], perCall: number): string {
  const rows = new Map<
    string,
    { tool: string; calls: number; credits: number; cell: string; note: string }
  >();
  for (const c of calls) {
    const cell = c.error !== undefined ? '-' : c.cached ? '0 (cached)' : undefined;
    const note =
      c.error ??
      (c.within_limit === false ? `over the limit of ${perCall} per call. ${c.note}` : (c.note ?? ''));
    const key = JSON.stringify([c.tool, cell ?? c.credits, note]);
    const row = rows.get(key) ?? { tool: c.tool, calls: 0, credits: 0, cell: cell ?? '', note };
    row.calls += 1;
    row.credits += cell === undefined ? (c.credits ?? 0) : 0;
    rows.set(key, row);
  }
  return table(
    ['Tool', 'Calls', 'Credits', 'Note'],
    [...rows.values()].map((r) => [
      r.tool,
      r.calls === 1 ? '' : String(r.calls),
      r.cell === '' ? String(r.credits) : r.cell,
      r.note,
    ]),
  );
}

export const estimateCost = defineLocalTool({
  name: 'estimate_cost',
  title: 'Estimate cost',
  toolset: 'account',
  inDefault: true,
  summary:
    'How much requests would cost before you run them: credits each, cached (free), plan, per-call limit, and whether they fit your remaining budget.',
  input: paramsObject({
    calls: z
      .array(
        z.strictObject({
          tool: z.string().min(1).max(100).describe('Tool name.'),
          arguments: z.record(z.string().max(100), z.unknown()).optional().describe('As for the call.'),
        }),
      )
      .min(1)
      .max(MAX_PLANNED_CALLS)
      .describe('Planned calls.'),
  }),
  output: z.object({
    calls: z.array(plannedCall),
    total: z.number().describe('Credits of the calls that would be sent (not cached, not refused)'),
    window: z.enum(CREDIT_WINDOWS),
    budget: z.number().nullable(),
    left: z.number().nullable(),
    fits: z.boolean().nullable().describe('Whether the total fits what is left; null: no budget'),
    max_credits_per_call: z.number(),
  }),
  async data(params, context) {
    const calls: z.output<typeof plannedCall>[] = [];
    // A request made again while the cache holds the first's answer is free.
    const planned = new Set<string>();
    for (const { tool, arguments: args } of params.calls) {
      const priced = await context.estimate(tool, args ?? {});
      if (!priced.ok) {
        calls.push({ tool, error: priced.error });
        continue;
      }
      const { ok: _, request, ...figures } = priced;
      const repeat = request !== undefined && planned.has(request);
      if (request !== undefined && figures.within_limit) planned.add(request);
      calls.push({ tool, ...figures, ...(repeat ? { cached: true, note: REPEAT_NOTE } : {}) });
    }
    const sent = calls.filter((c) => c.error === undefined && !c.cached && c.within_limit);
    const total = sent.reduce((sum, c) => sum + (c.credits ?? 0), 0);
    const { window, budget, left, max_credits_per_call } = await context.usage();
    return {
      calls,
      total,
      window,
      budget,
      left,
      fits: left === null ? null : total <= left,
      max_credits_per_call,
    };
  },
  summarise(data) {
    const cached = data.calls.filter((c) => c.cached).length;
    const refused = data.calls.filter((c) => c.error !== undefined || c.within_limit === false).length;
    const period = { day: 'today', month: 'this month', total: 'in total' }[data.window];
    return lines(
      `${counted(data.calls.length, 'planned call')}: ${counted(data.total, 'credit')} in all${cached > 0 ? `; ${cached} from the cache, free` : ''}${refused > 0 ? `; ${refused} would be refused before sending` : ''}.`,
      data.budget === null
        ? 'No budget is set (SVC_CREDIT_BUDGET).'
        : `${formatNumber(data.left)} of ${formatNumber(data.budget)} credits left ${period}: ${data.fits ? 'it fits' : 'it does not fit'}.`,
      plannedTable(data.calls, data.max_credits_per_call),
    );
  },
});
