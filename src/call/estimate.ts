/**
 * A planned call priced as the guard would price it now, with nothing sent (estimate_cost): the
 * tool found and its arguments checked exactly as a real call's are, the whole of what they ask for
 * priced by the endpoint's credit rule (with how many pages its answer makes), and whether the
 * cache, or a kept result a cursor names, would answer it free.
 */
import { cacheKey } from '../cache/key.js';
import { counted, formatTime } from '../format/text.js';
import { fittingPlan, largestFit } from '../guard/fit.js';
import { exposedTools } from '../inventory/tools.js';
import { unknownToolMessage } from '../inventory/unknown-tool.js';
import { validateParams } from '../kit/arguments.js';
import { estimateCredits } from '../kit/credits.js';
import {
  type CallEstimate,
  type Endpoint,
  type LocalTool,
  plansText,
  type RequestPrice,
  type Tool,
  type ToolContext,
  ToolRefusal,
  toolPlans,
} from '../kit/index.js';
import type { Services } from '../services/index.js';
import { cursorArguments, firstCheck, isCursorAlone, storedPage, type Unservable } from './cursors.js';
import { dataRoom } from './cut.js';
import { completed, refusalBeforeSending } from './fetch.js';
import { RefusedCall } from './refused.js';

/** Who asks: the account whose key pays, and the owner of kept results (with the person, signed in). */
export interface Caller {
  account: string;
  owner: string;
}

export async function estimateCall(
  services: Services,
  caller: Caller,
  name: string,
  args: Record<string, unknown>,
): Promise<CallEstimate> {
  const { account } = caller;
  const { config } = services;
  const tool = exposedTools(config).get(name);
  if (!tool) return { ok: false, error: unknownToolMessage(name, config, 'tools/list gives them all.') };
  const first = firstCheck(tool, args);
  if (!first.ok) return { ok: false, error: first.message };
  const filled = await cursorArguments(services, tool, args, caller.owner);
  if ('unservable' in filled) {
    return { ok: false, error: await cursorRefusal(services, account, tool, {}, true, filled) };
  }
  const checked = filled.found ? validateParams(tool.toolInput, filled.args) : first;
  if (!checked.ok) return { ok: false, error: checked.message };
  const { format: _, cursor, ...asked } = checked.value as Record<string, unknown> & { cursor?: string };
  const plans = toolPlans(tool);
  const onPlans = {
    plans: plansText(plans),
    plan_has: config.plan === undefined ? null : plans.includes(config.plan),
  };
  if (tool.kind === 'local') {
    if (!tool.estimate) return { ok: true, credits: 0, cached: false, ...onPlans, within_limit: true };
    try {
      const { credits, cached, note } = await tool.estimate(asked, pricingContext(services, caller));
      const within_limit = credits <= config.maxCreditsPerCall;
      return { ok: true, credits, cached, ...onPlans, within_limit, ...(note === undefined ? {} : { note }) };
    } catch (error) {
      if (error instanceof ToolRefusal) return { ok: false, error: error.message };
      throw error;
    }
  }
  if (cursor !== undefined) {
    const onlyCursor = isCursorAlone(args);
    const found =
      filled.found ??
      (await storedPage(services, tool, { params: asked, cursor, owner: caller.owner, onlyCursor }));
    if ('unservable' in found) {
      return { ok: false, error: await cursorRefusal(services, account, tool, asked, onlyCursor, found) };
    }
    const note = 'A page of a kept result: free.';
    return { ok: true, credits: 0, cached: true, ...onPlans, within_limit: true, note };
  }
  const priced = await priceRequest(services, account, tool, asked);
  const now = Math.floor(services.now() / 1000);
  const refused = refusalBeforeSending(tool, priced.params, now, config.plan);
  if (refused !== undefined) return { ok: false, error: refused.message };
  const withinLimit = priced.credits <= config.maxCreditsPerCall;
  const fit = withinLimit
    ? undefined
    : largestFit(tool.credits, priced.params, config.maxCreditsPerCall, now);
  const note = withinLimit ? pagesNote(priced.pages) : (fit ?? 'Ask for less data in one call.');
  const plan = withinLimit
    ? undefined
    : fittingPlan(tool.credits, priced.params, config.maxCreditsPerCall, now);
  return {
    ok: true,
    credits: priced.credits,
    cached: priced.cached,
    ...onPlans,
    within_limit: withinLimit,
    ...(note !== undefined ? { note } : {}),
    ...(plan ? { fitting_plan: { ...plan, total: plan.credits.reduce((a, b) => a + b, 0) } } : {}),
    request: config.cache && tool.refreshSeconds > 0 ? priced.key : undefined,
  };
}

/**
 * The refusal of a cursor that names no page that can be served: why, that nothing was sent, and
 * the arguments that ask the service again for its rows with their price (a cursor sent alone
 * names no arguments: the first call's are asked for again).
 */
export async function cursorRefusal(
  services: Services,
  account: string,
  tool: Tool,
  asked: Record<string, unknown>,
  onlyCursor: boolean,
  { unservable }: Unservable,
): Promise<string> {
  const head = `The page this cursor names cannot be served: ${unservable}. Nothing was sent or charged.`;
  if (onlyCursor)
    return `${head} Call the tool again with the first call's arguments: its next gives a new cursor.`;
  if (tool.kind === 'local') return `${head} To ask again: ${JSON.stringify(asked)} (free).`;
  const { credits, cached } = await priceRequest(services, account, tool, asked);
  const price = cached ? 'free: the cache holds it' : counted(credits, 'credit');
  return `${head} To ask the service again for these rows: ${JSON.stringify(asked)} (${price}).`;
}

/** "One request; its answer makes about 4 pages (the first in the call's answer, the rest free)." */
function pagesNote(pages: number | undefined): string | undefined {
  if (pages === undefined || pages <= 1) return undefined;
  return `One request for all of it; its answer makes about ${pages} pages of JSON (next serves each after the first, free).`;
}

/**
 * A request of `endpoint` with these (checked) parameters as a fetch would make it now: completed
 * and priced whole by the endpoint's rule, with about how many pages of JSON its answer makes; with
 * its cache key and whether the cache holds its answer.
 */
export async function priceRequest(
  services: Services,
  account: string,
  endpoint: Endpoint,
  checked: Record<string, unknown>,
): Promise<RequestPrice & { params: Record<string, unknown>; key: string; pages?: number }> {
  const now = Math.floor(services.now() / 1000);
  const params = completed(endpoint, checked, now);
  const key = cacheKey(endpoint.name, account, params);
  const records = endpoint.credits.maxItems(params, now);
  const bytes = endpoint.pages?.recordBytes(params);
  return {
    credits: estimateCredits(endpoint.credits, params, now),
    cached: await services.cache.cached(key, endpoint.refreshSeconds * 1000),
    params,
    key,
    pages:
      bytes === undefined
        ? undefined
        : Math.ceil((records * bytes) / dataRoom(services.config.maxAnswerChars)),
  };
}

/** What a tool may read to price itself: prices and the plan, never a request sent. */
export function pricingContext(services: Services, caller: Caller): ToolContext {
  const { account } = caller;
  return {
    account,
    fetch: () => Promise.reject(new Error('pricing a call sends nothing')),
    query: () => Promise.reject(new Error('pricing a call runs no query')),
    script: () => Promise.reject(new Error('pricing a call runs no script')),
    declarations: () => ({ text: '', unknown: [] }),
    usage: () => services.guard.usage(account),
    estimate: (name, args) => estimateCall(services, caller, name, args),
    price: async (endpoint, params) => {
      const { credits, cached } = await priceRequest(services, account, endpoint, params);
      return { credits, cached };
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
  const { credits } = await tool.estimate(params, context);
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
