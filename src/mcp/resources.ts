/**
 * The resources: svc://credits (the guard's figures, read by server.ts), svc://endpoints, the
 * endpoints' table as JSON (each endpoint's path, tool, toolset, credit rule, refresh time and plans, and
 * whether this server exposes its tool), svc://analysis/definitions where analyze_assets is
 * listed, and svc://scripts/declarations where run_script is. Plain data and a render function, whatever the transport
 * or SDK; loaded with the tool path, after `initialize`, since it reads the whole table.
 */

import { endpoints } from '../endpoints/index.js';
import { DEFINITIONS_URI } from '../local/analysis-definitions.js';

export const CREDITS_URI = 'svc://credits';
export const ENDPOINTS_URI = 'svc://endpoints';

export const creditsResource = {
  uri: CREDITS_URI,
  name: 'credits',
  title: 'Credit usage',
  description: "The credit guard's figures for the key: budget, spent, left, by tool, cache savings.",
  mimeType: 'application/json',
};

export const endpointsResource = {
  uri: ENDPOINTS_URI,
  name: 'endpoints',
  title: 'Endpoint table',
  description:
    'Every endpoint of the service this server knows: path, tool, toolset, credits, refresh time, plans, and whether its tool is exposed here.',
  mimeType: 'application/json',
};

export const SCRIPT_DECLARATIONS_URI = 'svc://scripts/declarations';

export const declarationsResource = {
  uri: SCRIPT_DECLARATIONS_URI,
  name: 'script-declarations',
  title: 'Script declarations',
  description:
    'What a run_script script can call, as TypeScript: one line a tool, its arguments and its whole data; query and console.log.',
  mimeType: 'text/plain',
};

export const definitionsResource = {
  uri: DEFINITIONS_URI,
  name: 'analysis-definitions',
  title: 'Analysis definitions',
  description:
    "What each of analyze_assets' figures is: return, volatility, drawdown, averages, RSI, MACD, Bollinger %b, beta, correlation.",
  mimeType: 'text/markdown',
};

/** The endpoints' table as JSON text; `exposed` names the tools this server lists. */
export function endpointsJson(exposed: ReadonlySet<string>): string {
  return JSON.stringify(
    endpoints.map((e) => ({
      path: e.path,
      tool: e.name,
      toolset: e.toolset,
      default: e.inDefault === true,
      exposed: exposed.has(e.name),
      credits: e.credits.text,
      refresh_seconds: e.refreshSeconds,
      plans: e.plans,
    })),
  );
}
