/**
 * A planned call priced as the guard would price it now, with nothing sent (estimate_cost): the
 * tool found and its arguments checked exactly as a real call's are, the request capped to one
 * answer, the estimate from the endpoint's credit rule, and whether the cache would answer it.
 */
import { cacheKey } from '../cache/key.js';
import { estimateCredits } from '../catalog/credits.js';
import {
  type CallEstimate,
  type Endpoint,
  type LocalTool,
  plansText,
  type RequestPrice,
  selectTools,
  type ToolContext,
  ToolRefusal,
  toolPlans,
  unknownToolMessage,
} from '../catalog/index.js';
import { validateParams } from '../catalog/params.js';
import { counted, formatTime } from '../format/text.js';
import { largestFit } from '../guard/fit.js';
import { RefusedCall } from './confirmation.js';
import { completed, type Page, pageOf } from './pages.js';
import type { Services } from './services.js';

export async function estimateCall(
  services: Services,
  account: string,
  name: string,
  args: Record<string, unknown>,
): Promise<CallEstimate> {
  const { config } = services;
  const exposed = selectTools(config);
  const tool = exposed.find((t) => t.name === name);
  if (!tool) {
    const names = exposed.map((t) => t.name);
    return { ok: false, error: unknownToolMessage(name, config, names, 'tools/list gives them all.') };
  }
  const checked = validateParams(tool.toolInput, args);
  if (!checked.ok) return { ok: false, error: checked.message };
  const { format: _, ...asked } = checked.value as Record<string, unknown>;
  const plans = toolPlans(tool);
  const onPlans = {
    plans: plansText(plans),
    plan_has: config.plan === undefined ? null : plans.includes(config.plan),
  };
  if (tool.kind === 'local') {
    if (!tool.estimate) return { ok: true, credits: 0, cached: false, ...onPlans, within_limit: true };
    try {
      const { credits, cached } = await tool.estimate(asked as never, pricingContext(services, account));
      return { ok: true, credits, cached, ...onPlans, within_limit: credits <= config.maxCreditsPerCall };
    } catch (error) {
      if (error instanceof ToolRefusal) return { ok: false, error: error.message };
      throw error;
    }
  }
  const priced = await priceRequest(services, account, tool, asked);
  const withinLimit = priced.credits <= config.maxCreditsPerCall;
  const now = Math.floor(services.now() / 1000);
  const fit = withinLimit
    ? undefined
    : largestFit(tool.credits, priced.page.params, config.maxCreditsPerCall, now);
  const note = withinLimit ? priced.page.capped?.note : (fit ?? 'Ask for less data in one call.');
  return {
    ok: true,
    credits: priced.credits,
    cached: priced.cached,
    ...onPlans,
    within_limit: withinLimit,
    ...(note !== undefined ? { note } : {}),
    request: config.cache && tool.refreshSeconds > 0 ? priced.key : undefined,
  };
}

/**
 * A request of `endpoint` with these (checked) parameters as a fetch would make it now: completed,
 * capped to one answer and priced by the endpoint's rule; with its cache key and whether the cache
 * holds its answer.
 */
async function priceRequest(
  services: Services,
  account: string,
  endpoint: Endpoint,
  checked: Record<string, unknown>,
): Promise<RequestPrice & { page: Page; key: string }> {
  const now = Math.floor(services.now() / 1000);
  const params = completed(endpoint, checked, now);
  const page = pageOf(endpoint, params, now, services.config.maxAnswerChars);
  const key = cacheKey(endpoint.name, account, params);
  return {
    credits: estimateCredits(endpoint.credits, page.params, now),
    cached: await services.cache.cached(key, endpoint.refreshSeconds * 1000),
    ...(page.capped?.next === undefined ? {} : { next: page.capped.next }),
    page,
    key,
  };
}

/** What a tool may read to price itself: prices and the plan, never a request sent. */
export function pricingContext(services: Services, account: string): ToolContext {
  return {
    account,
    fetch: () => Promise.reject(new Error('pricing a call sends nothing')),
    usage: () => services.guard.usage(account),
    estimate: (name, args) => estimateCall(services, account, name, args),
    price: async (endpoint, params) => {
      const { page: _, key: __, ...price } = await priceRequest(services, account, endpoint, params);
      return price;
    },
    now: () => services.now(),
    plan: services.config.plan,
  };
}

/**
 * A local tool's call priced before it sends anything, as the guard checks a request: refused
 * over SVC_MAX_CREDITS_PER_CALL, or over what is left of the budget, saying what it would cost.
 * Its estimate, when the tool has one.
 */
export async function refuseOverLimits(
  services: Services,
  tool: LocalTool,
  params: Record<string, unknown>,
  context: ToolContext,
): Promise<number | undefined> {
  if (!tool.estimate) return undefined;
  const { credits } = await tool.estimate(params as never, context);
  const most = services.config.maxCreditsPerCall;
  const estimated = `Refused before sending: this call is estimated at ${counted(credits, 'credit')}`;
  if (credits > most) {
    throw new RefusedCall(
      `${estimated}, over the limit of ${most} per call (SVC_MAX_CREDITS_PER_CALL). Ask for less data in one call, or raise SVC_MAX_CREDITS_PER_CALL.`,
      'per_call_limit',
    );
  }
  const usage = await context.usage();
  if (usage.left === null || credits <= usage.left) return credits;
  const window = usage.window === 'total' ? 'total' : `${usage.window}'s`;
  throw new RefusedCall(
    `${estimated}, but ${counted(usage.left, 'credit')} of the ${window} budget of ${usage.budget} are left. Ask for less data in one call${usage.resets_at ? `, or wait until the window rolls (${formatTime(usage.resets_at)})` : ''}.`,
    'budget',
  );
}
