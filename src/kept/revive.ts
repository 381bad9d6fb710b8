/**
 * A kept service answer normalised again, as its tool's endpoint normalised it when it came: the
 * same body, arguments and time give the same data. The server's thread does it for a later page
 * of such a result; the query engine's thread for the table's rows.
 */
import type { Revive } from '../cache/result-format.js';
import { endpointsByName } from '../endpoints/index.js';

export const revive: Revive = (tool, params, answer, nowMs) => {
  const endpoint = endpointsByName.get(tool);
  if (endpoint === undefined) throw new Error(`a kept answer of an unknown tool: ${tool}`);
  return endpoint.normalise(answer, params, nowMs) as Record<string, unknown>;
};
