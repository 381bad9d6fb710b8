/** What planned calls would cost before they are made, against the budget left. */
import { z } from 'zod';
import { formatNumber } from '../format/numbers.js';
import { counted, lines, table } from '../format/text.js';
import { CREDIT_WINDOWS, WINDOW_WORDS } from '../kit/credits.js';
import { defineLocalTool } from '../kit/define.js';
import { paramsObject } from '../kit/params.js';

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
  fitting_plan: z
    .object({
      calls: z.array(z.record(z.string(), z.unknown())).describe("Each call's arguments"),
      credits: z.array(z.number()),
      total: z.number(),
    })
    .optional()
    .describe('Over the per-call limit: the whole of it as calls that each fit'),
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
    const over = c.within_limit === false ? `over the limit of ${perCall} per call.` : undefined;
    const note = c.error ?? [over, c.note].filter((part) => part !== undefined).join(' ');
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
      r.cell === '' ? formatNumber(r.credits) : r.cell,
      r.note,
    ]),
  );
}

/**
 * What would be refused before sending, and why: over the per-call limit (and its setting), or
 * arguments a call refuses (the table says which); undefined when nothing would be.
 */
function refusedLine(
  calls: readonly z.output<typeof plannedCall>[],
  perCall: number,
  sent: number,
): string | undefined {
  const over = calls.filter((c) => c.error === undefined && c.within_limit === false).length;
  const wrong = calls.filter((c) => c.error !== undefined).length;
  if (over + wrong === 0) return undefined;
  const why = [
    over > 0 && `${over} over the limit of ${counted(perCall, 'credit')} a call (SVC_MAX_CREDITS_PER_CALL)`,
    wrong > 0 && `${wrong} for ${wrong === 1 ? 'its' : 'their'} arguments (see the table)`,
  ].filter(Boolean);
  return `Refused before sending: ${why.join('; ')}. What would be sent now: ${counted(sent, 'credit')}.`;
}

/** "get_ohlcv_historical fits as 4 calls of at most 25 credits, 88 in all: {…} (25); …". */
function planLine(
  tool: string,
  plan: NonNullable<z.output<typeof plannedCall>['fitting_plan']>,
  perCall: number,
): string {
  const calls = plan.calls.map((args, i) => `${JSON.stringify(args)} (${plan.credits[i]})`).join('; ');
  return `${tool} fits as ${plan.calls.length} calls of at most ${counted(perCall, 'credit')}, ${formatNumber(plan.total)} in all: ${calls}.`;
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
          tool: z.string().min(1).max(100),
          arguments: z.record(z.string().max(100), z.unknown()).optional(),
        }),
      )
      .min(1)
      .max(MAX_PLANNED_CALLS)
      .describe('Planned calls.'),
  }),
  output: z.object({
    calls: z.array(plannedCall),
    priced: z
      .number()
      .describe('What the planned calls cost, those over the per-call limit too (not the cached)'),
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
    const sum = (list: typeof calls) => list.reduce((all, c) => all + (c.credits ?? 0), 0);
    const paid = calls.filter((c) => c.error === undefined && !c.cached);
    const total = sum(paid.filter((c) => c.within_limit));
    const { window, budget, left, max_credits_per_call } = await context.usage();
    return {
      calls,
      priced: sum(paid),
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
    const period = WINDOW_WORDS[data.window];
    return lines(
      `${counted(data.calls.length, 'planned call')}: ${counted(data.priced, 'credit')} in all${cached > 0 ? `; ${cached} from the cache, free` : ''}.`,
      refusedLine(data.calls, data.max_credits_per_call, data.total),
      ...data.calls.flatMap((c) =>
        c.fitting_plan ? [planLine(c.tool, c.fitting_plan, data.max_credits_per_call)] : [],
      ),
      data.budget === null
        ? 'No budget is set (SVC_CREDIT_BUDGET).'
        : `${formatNumber(data.left)} of ${formatNumber(data.budget)} credits left ${period}: ${data.fits ? 'what would be sent fits' : 'what would be sent does not fit'}.`,
      plannedTable(data.calls, data.max_credits_per_call),
    );
  },
});
