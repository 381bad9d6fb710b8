/**
 * A script's calls (run_script): each `tools.NAME(args)` inside it is a call as any other (the
 * tool found among those the settings expose, its arguments checked, the guard's limits, the cache,
 * pay once), answered with the tool's whole data rather than a page, and charged to the script's
 * max_credits as well as to the budget (call/cap.ts). Rows are kept as a table as a direct call's
 * are, and the data names it (`kept`): the script's `query` and later calls read it. A refusal
 * reaches the script as an Error with the message the tool gives directly.
 */

import { z } from 'zod';
import { exposedTools, tools } from '../inventory/tools.js';
import { unknownToolMessage } from '../inventory/unknown-tool.js';
import { baseOf, validateParams } from '../kit/arguments.js';
import type { Tool, ToolContext } from '../kit/index.js';
import type { ScriptAnswer, ScriptRun } from '../kit/scripts.js';
import type { Selection } from '../kit/toolsets.js';
import { declarations } from '../script/declarations.js';
import { RunnerBusy } from '../script/runner.js';
import type { Services } from '../services/index.js';
import { CreditCap } from './cap.js';
import { refuseOverLimits } from './estimate.js';
import type { EndpointData, FetchContext } from './fetch.js';
import { keptFetch } from './paging.js';
import { RefusedCall } from './refused.js';

/** The tool that runs scripts: a script cannot run one. */
export const SCRIPT_TOOL = 'run_script';

/** What a script's calls are made with: the calling tool's fetch context, and how a call's context and failure read. */
export interface ScriptCalls {
  /** The account whose key pays: a call answered here, with nothing sent, is booked to it as free. */
  account: string;
  /** Whose kept tables a call's rows join (guard/accounts.ts ownerOf). */
  owner: string;
  fetchContext: FetchContext;
  contextFor(fetchContext: FetchContext, fetched: (data: EndpointData) => void): ToolContext;
  describe(error: unknown, tool: Tool): string;
  signal?: AbortSignal;
}

export async function runScript(
  services: Services,
  run: ScriptRun,
  calls: ScriptCalls,
): Promise<ScriptAnswer> {
  const cap = new CreditCap(run.maxCredits);
  const query = tools.find((tool) => tool.name === 'query_data');
  // The script's calls end with the call that runs it, or at its deadline.
  const stopped = new AbortController();
  const signal = calls.signal ? AbortSignal.any([calls.signal, stopped.signal]) : stopped.signal;
  const inner = { ...calls, fetchContext: { ...calls.fetchContext, signal } };
  const host = {
    tool: (name: string, args: unknown) =>
      wholeData(services, byName(services.config, name), args, inner, cap),
    query: (sql: string) => wholeData(services, query, { sql }, inner, cap),
    stop: () => stopped.abort(),
  };
  try {
    const outcome = await services.scripts.run(run.code, host, { owner: calls.owner, signal: calls.signal });
    const { logs, logsDropped, calls: made } = outcome;
    const resultChars = services.config.maxAnswerChars;
    const common = { logs, logsDropped, calls: made, credits: cap.spent, resultChars };
    return outcome.end.ok
      ? { ...common, ok: true, json: outcome.end.json }
      : { ...common, ok: false, message: outcome.end.message };
  } catch (error) {
    if (error instanceof RunnerBusy) throw new RefusedCall(error.message, 'busy');
    throw error;
  }
}

function byName(config: Selection, name: string): Tool {
  const tool = exposedTools(config).get(name);
  if (tool === undefined || tool.name === SCRIPT_TOOL) {
    const why =
      name === SCRIPT_TOOL
        ? 'A script cannot run a script.'
        : unknownToolMessage(name, config, 'svc://scripts/declarations lists what a script can call.');
    throw new Error(why);
  }
  return tool;
}

/** One call inside a script: the tool's whole data for `args`, or an Error saying why not. */
async function wholeData(
  services: Services,
  tool: Tool | undefined,
  args: unknown,
  calls: ScriptCalls,
  cap: CreditCap,
): Promise<unknown> {
  if (tool === undefined) throw new Error("query_data is not among this server's tools.");
  const given = args !== null && typeof args === 'object' && !Array.isArray(args) ? args : undefined;
  if (given === undefined) throw new Error(`${tool.name} takes one object of arguments, e.g. {}.`);
  const checked = validateParams(tool.toolInput, asText(tool.toolInput, given as Record<string, unknown>));
  if (!checked.ok) throw new Error(checked.message);
  const { format: _, cursor: __, ...params } = checked.value as Record<string, unknown>;
  const fetches: EndpointData[] = [];
  const context = calls.contextFor({ ...calls.fetchContext, tool: tool.name, cap }, (fetched) => {
    fetches.push(fetched);
  });
  try {
    if (tool.kind === 'endpoint') {
      const whole = await tool.data(params, context);
      const { data, kept } = await keptFetch(services, tool, { params, whole, fetches, owner: calls.owner });
      return kept === undefined ? data : { ...data, kept };
    }
    await refuseOverLimits(services, tool, params, context);
    const data = await tool.data(params, context);
    // As a direct call is booked: answered here with nothing sent, a free call of its tool.
    if (fetches.length === 0) services.guard.recordFree(calls.account, tool.name);
    return data;
  } catch (error) {
    throw new Error(calls.describe(error, tool));
  }
}

/**
 * A script's arguments as its tools take them. A tool's data holds ids as numbers, and a script
 * passes them on as they are: where a parameter takes text, a whole number is given as its digits
 * and a list of whole numbers or text as its items joined by commas (the comma list such a
 * parameter takes). Any other value is left as it is, for the check to refuse.
 */
function asText(input: z.ZodObject, args: Record<string, unknown>): Record<string, unknown> {
  const given = { ...args };
  for (const [name, value] of Object.entries(args)) {
    if (!Object.hasOwn(input.shape, name) || !(baseOf(input.shape[name]) instanceof z.ZodString)) continue;
    if (Number.isSafeInteger(value)) given[name] = String(value);
    else if (Array.isArray(value) && value.length > 0 && value.every(isItem)) given[name] = value.join(',');
  }
  return given;
}

const isItem = (item: unknown) => Number.isSafeInteger(item) || typeof item === 'string';

/** The declarations of the named tools a script may call (all that the settings expose when none are named). */
export function scriptDeclarations(
  config: Selection,
  names: readonly string[] = [],
): { text: string; unknown: string[] } {
  const exposed = exposedTools(config);
  const callable = [...exposed.values()].filter((tool) => tool.name !== SCRIPT_TOOL);
  const unknown = names.filter((name) => !exposed.has(name) || name === SCRIPT_TOOL);
  const chosen = names.length === 0 ? callable : callable.filter((tool) => names.includes(tool.name));
  return { text: declarations(chosen), unknown };
}
