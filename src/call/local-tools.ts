/**
 * Tools answered by the server itself, with no endpoint of their own: they take the same path as
 * endpoint tools (input schema, presentation, errors) but never reach the guard or the service.
 */
import { z } from 'zod';
import { guardFigures } from '../catalog/account.js';
import { type Endpoint, withFormat } from '../catalog/define.js';
import { paramsObject } from '../catalog/params.js';
import type { Toolset } from '../catalog/toolsets.js';
import { formatNumber } from '../format/numbers.js';
import { formatTime, lines, table } from '../format/text.js';
import type { WindowKind } from '../guard/windows.js';
import type { Services } from './services.js';

export interface LocalContext {
  services: Services;
  /** The caller's account (a hash of its key), for its budget. */
  account: string;
  /** An endpoint's data through the cache and the guard, as the caller (parameters already checked). */
  fetch(endpoint: Endpoint, params: Record<string, unknown>): Promise<{ data: unknown }>;
}

export interface LocalTool<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  toolset: Toolset;
  inDefault?: boolean;
  description: string;
  input: I;
  toolInput: z.ZodObject;
  output: O;
  answer(params: z.output<I>, context: LocalContext): Promise<z.output<O>>;
  summarise(data: z.output<O>, params: z.output<I>): string;
}

export function defineLocalTool<I extends z.ZodObject, O extends z.ZodObject>(
  spec: Omit<LocalTool<I, O>, 'description' | 'toolInput'> & {
    summary: string;
    /** What the tool costs, when it reads endpoints' data; default: free, no call to the service. */
    credits?: string;
  },
): LocalTool<I, O> {
  const { summary, credits, ...rest } = spec;
  return {
    ...rest,
    description: `${summary}\nCredits: ${credits ?? 'free; no call to the service'}. Plans: all.`,
    toolInput: withFormat(spec.input),
  };
}

const toolFigures = z.object({ calls: z.number(), credits: z.number(), cache_hits: z.number() });

export const creditUsage = defineLocalTool({
  name: 'get_credit_usage',
  title: 'Credit usage',
  toolset: 'account',
  inDefault: true,
  summary: "This server's credit budget for the key: spent, left, window, spend by tool, cache savings.",
  input: paramsObject({}),
  output: guardFigures.extend({
    reserved: z.number().describe('Credits held by calls in flight'),
    max_credits_per_call: z.number(),
    by_tool: z.record(z.string(), toolFigures),
    cache_hits: z.number(),
    credits_saved: z.number().describe('Credits the cache saved'),
    ledger: z.string().describe('Where the ledger is kept'),
    problem: z.string().optional().describe('Why the ledger is unusable, if it is'),
  }),
  answer: (_params, { services, account }) => services.guard.usage(account),
  summarise(u) {
    const tools = Object.entries(u.by_tool).sort(([, a], [, b]) => b.credits - a.credits);
    const period = { day: 'today', month: 'this month', total: 'in total' }[u.window as WindowKind];
    return lines(
      u.problem,
      u.budget === null
        ? `Credits ${period}: ${formatNumber(u.spent)} spent, no budget set (SVC_CREDIT_BUDGET)`
        : `Credits ${period}: ${formatNumber(u.spent)} of ${formatNumber(u.budget)} spent, ${formatNumber(u.left)} left${u.reserved > 0 ? `, ${formatNumber(u.reserved)} held by calls in flight` : ''}`,
      u.resets_at !== null && `The window rolls at ${formatTime(u.resets_at)}.`,
      `${formatNumber(u.cache_hits)} cache hits saved ${formatNumber(u.credits_saved)} credits; at most ${formatNumber(u.max_credits_per_call)} credits per call.`,
      tools.length > 0 &&
        table(
          ['Tool', 'Calls', 'Credits', 'Cache hits'],
          tools
            .slice(0, 15)
            .map(([name, f]) => [name, String(f.calls), String(f.credits), String(f.cache_hits)]),
        ),
    );
  },
});
