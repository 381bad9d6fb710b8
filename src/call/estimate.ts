/**
 * A planned call priced as the guard would price it now, with nothing sent (estimate_cost): the
 * tool found and its arguments checked exactly as a real call's are, the request capped to one
 * answer, the estimate from the endpoint's credit rule, and whether the cache would answer it.
 */
import { cacheKey } from '../cache/key.js';
import { estimateCredits } from '../catalog/credits.js';
import { type CallEstimate, plansText, selectTools, unknownToolMessage } from '../catalog/index.js';
import { validateParams } from '../catalog/params.js';
import { largestFit } from '../guard/fit.js';
import { completed, pageOf } from './pages.js';
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
  if (tool.kind === 'local') {
    return { ok: true, credits: 0, cached: false, plans: 'all', plan_has: null, within_limit: true };
  }
  const { format: _, ...asked } = checked.value as Record<string, unknown>;
  const now = Math.floor(services.now() / 1000);
  const params = completed(tool, asked, now);
  const page = pageOf(tool, params, now, config.maxAnswerChars);
  const credits = estimateCredits(tool.credits, page.params, now);
  const withinLimit = credits <= config.maxCreditsPerCall;
  const fit = withinLimit ? undefined : largestFit(tool.credits, page.params, config.maxCreditsPerCall, now);
  const key = cacheKey(tool.name, account, params);
  const note = withinLimit ? page.capped?.note : (fit ?? 'Ask for less data in one call.');
  return {
    ok: true,
    credits,
    cached: await services.cache.cached(key, tool.refreshSeconds * 1000),
    plans: plansText(tool.plans),
    plan_has: config.plan === undefined ? null : tool.plans.includes(config.plan),
    within_limit: withinLimit,
    ...(note !== undefined ? { note } : {}),
    request: config.cache && tool.refreshSeconds > 0 ? key : undefined,
  };
}
