/**
 * The one shape of a tool. Two kinds share it: an `endpoint` tool answers with one endpoint's data
 * (catalog/define.ts), a `local` tool is answered by the server itself from what it holds or from
 * endpoints' data (search, credit usage). Both answer through a `ToolContext`, so the call path
 * (input schema, presentation, errors) is one for all.
 */
import type { z } from 'zod';
import type { CreditUsageFigures } from './account.js';
import type { Endpoint } from './define.js';
import { formatParam } from './params.js';
import { ALL_PLANS, type Plan, plansText } from './plans.js';
import type { Toolset } from './toolsets.js';

/** What a tool's answer may use besides its parameters; the call path builds it per call. */
export interface ToolContext {
  /** The caller's account (a hash of its key), for its budget. */
  account: string;
  /** An endpoint's whole data through the cache and the guard, as the caller (parameters already checked). */
  fetch(endpoint: Endpoint, params: Record<string, unknown>): Promise<{ data: unknown }>;
  /** The credit guard's figures for the caller's account (get_credit_usage's answer). */
  usage(): Promise<CreditUsageFigures>;
  /** What a call of `tool` with `args` would cost now, checked and priced as a real call is; nothing is sent. */
  estimate(tool: string, args: Record<string, unknown>): Promise<CallEstimate>;
  /** What `fetch` of `endpoint` with these (checked) parameters would cost now; nothing is sent. */
  price(endpoint: Endpoint, params: Record<string, unknown>): Promise<RequestPrice>;
  /** The server's clock in milliseconds: real time, or SVC_NOW's instant. */
  now(): number;
  /** The key's plan, when SVC_PLAN says it. */
  plan?: Plan;
}

/** One request as the guard prices it: the whole of what its parameters ask for. */
export interface RequestPrice {
  credits: number;
  /** The cache would answer it now: free. */
  cached: boolean;
}

/** A local tool's call refused for its input, before anything is sent, with what to do instead. */
export class ToolRefusal extends Error {
  override name = 'ToolRefusal';
}

/** A planned call, priced: or why a real call with those arguments would be refused before sending. */
export type CallEstimate =
  | { ok: false; error: string }
  | {
      ok: true;
      /** The guard's estimate, after the same capping to one answer as a real call. */
      credits: number;
      /** Answered from the cache now, so free. */
      cached: boolean;
      /** The plans that have the endpoint: "all", or "Startup+". */
      plans: string;
      /** Whether the key's plan (SVC_PLAN) has it; null when SVC_PLAN is unset. */
      plan_has: boolean | null;
      /** Within SVC_MAX_CREDITS_PER_CALL. */
      within_limit: boolean;
      /** How to make it fit the per-call limit, when it does not; or the capping a real call would do. */
      note?: string;
      /**
       * The request it would make (its cache key), where the cache would answer the same request
       * made again within the endpoint's refresh: a repeat in a plan is free.
       */
      request?: string;
    };

/** What every tool has, whatever its kind. */
export interface ToolBase<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  /** MCP tool name, as the contract fixes it (docs/architecture.md). */
  name: string;
  title: string;
  toolset: Toolset;
  /** Whether the tool is in the `default` selection (SVC_TOOLSETS unset or `default`). */
  inDefault?: boolean;
  /** The full tool description: what it answers and when to use it, then credits (and more). */
  description: string;
  input: I;
  /** What the tool takes: its parameters and `format`. */
  toolInput: z.ZodObject;
  output: O;
  /** The tool's structured data for checked parameters. */
  data(params: z.output<I>, context: ToolContext): Promise<z.output<O>>;
  /** Structured data → the compact text answer. */
  summarise(data: z.output<O>, params: z.output<I>): string;
}

export interface LocalTool<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject>
  extends ToolBase<I, O> {
  kind: 'local';
  /** It reads endpoints' data (search reads the cryptocurrency map): the service's world, not the server's own. */
  callsService?: boolean;
  /** The plans that have the endpoints it reads; all when unset. */
  plans?: readonly Plan[];
  /**
   * What a call costs, for a tool whose requests depend on its parameters: the guard checks it
   * against the per-call limit and the budget before the tool sends anything, and estimate_cost
   * gives it. Free when unset.
   */
  estimate?(params: z.output<I>, context: ToolContext): Promise<RequestPrice>;
}

/** Whether a tool reaches the service (an open world, in MCP's annotations) or only the server's own figures. */
export function callsService(tool: Tool): boolean {
  return tool.kind === 'endpoint' || tool.callsService === true;
}

export type Tool = Endpoint | LocalTool;

export function defineLocalTool<I extends z.ZodObject, O extends z.ZodObject>(
  spec: Omit<LocalTool<I, O>, 'kind' | 'description' | 'toolInput'> & {
    summary: string;
    /** What the tool costs, when it reads endpoints' data; default: free, no call to the service. */
    credits?: string;
  },
): LocalTool<I, O> {
  const { summary, credits, ...rest } = spec;
  return {
    ...rest,
    kind: 'local',
    description: `${summary}\n${costLine(credits ?? 'free, answered here', spec.plans ?? ALL_PLANS)}`,
    toolInput: withFormatParam(spec.input),
  };
}

/** A description's last line: what a call costs, and the plans that have it when not all do. */
export function costLine(credits: string, plans: readonly Plan[]): string {
  const which = plansText(plans);
  return `Credits: ${credits}.${which === 'all' ? '' : ` Plans: ${which}.`}`;
}

/** A tool's input: its parameters and `format`, in one zod schema. */
export function withFormatParam(input: z.ZodObject): z.ZodObject {
  return input.safeExtend({ format: formatParam });
}
