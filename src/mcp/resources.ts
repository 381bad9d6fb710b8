/**
 * The svc://endpoints resource: the catalog as JSON (each endpoint's path, tool, toolset, credit
 * rule, refresh time and plans, and whether this server exposes its tool). Plain data and a render
 * function, whatever the transport or SDK.
 */
import { endpoints } from '../catalog/index.js';

export const ENDPOINTS_URI = 'svc://endpoints';

export const endpointsResource = {
  uri: ENDPOINTS_URI,
  name: 'endpoints',
  title: 'Endpoint catalog',
  description:
    'Every endpoint of the service this server knows: path, tool, toolset, credits, refresh time, plans, and whether its tool is exposed here.',
  mimeType: 'application/json',
};

/** The catalog as JSON text; `exposed` names the tools this server lists. */
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
