/**
 * The one way to define a tool. Two kinds share one shape: an `endpoint` tool answers with one
 * endpoint's data (defineEndpoint), a `local` tool is answered by the server itself from what it
 * holds or from endpoints' data (defineLocalTool: search, credit usage, analysis). Both answer
 * through a `ToolContext`, so the call path (input schema, presentation, errors) is one for all.
 * Everything else (the MCP tools, the CLI, the docs, the manifest, the cache and the credit guard)
 * reads these.
 */

import { z } from 'zod';
import type { CreditRule } from './credits.js';
import { fastParse, readWith } from './fast-parse.js';
import { cursorParam, type Pages, type RowsShape } from './pages.js';
import { formatParam } from './params.js';
import { ALL_PLANS, type Plan, plansText, type Reach } from './plans.js';
import type { KeptSummary, QueryAnswer } from './queries.js';
import type { ScriptAnswer, ScriptRun } from './scripts.js';
import type { Toolset } from './toolsets.js';
import type { CreditUsageFigures } from './usage-figures.js';

/** What a tool's answer may use besides its parameters; the call path builds it per call. */
export interface ToolContext {
  /** The caller's account (a hash of its key), for its budget. */
  account: string;
  /**
   * An endpoint's whole data through the cache and the guard, as the caller (parameters already
   * checked). With `keep`, its rows are also kept as the caller's table, as the endpoint's own
   * answer keeps them, and `kept` names it.
   */
  fetch(
    endpoint: Endpoint,
    params: Record<string, unknown>,
    options?: { keep?: boolean },
  ): Promise<{ data: unknown; kept?: KeptSummary }>;
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
  /** One SELECT over the caller's kept tables: free, nothing is sent. */
  query(sql: string): Promise<QueryAnswer>;
  /** A script over the tools (run_script), every call inside it priced and guarded as a call is. */
  script(run: ScriptRun): Promise<ScriptAnswer>;
  /** The declarations of the named tools a script may call (all when none are named), and the names unknown. */
  declarations(names?: readonly string[]): { text: string; unknown: string[] };
}

/** One request as the guard prices it: the whole of what its parameters ask for. */
export interface RequestPrice {
  credits: number;
  /** The cache would answer it now: free. */
  cached: boolean;
  /** What the price is, when it is not what the call will be charged (a script's: the most it may spend). */
  note?: string;
}

/**
 * A local tool's call refused for its input, before anything is sent, with what to do instead; or,
 * with a reason, refused as the server's own refusals are (busy: the query engine had no turn).
 */
export class ToolRefusal extends Error {
  override name = 'ToolRefusal';
  constructor(
    message: string,
    readonly reason?: 'busy',
  ) {
    super(message);
  }
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
      /** Over the per-call limit: the whole of it as calls that each fit, when its rows can be cut so. */
      fitting_plan?: { calls: Record<string, unknown>[]; credits: number[]; total: number };
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
  /** What one row of the table its answer keeps is, as its text counts them ("candle"); "row" unsaid. */
  rowName?: string;
  /**
   * How a list or history is shown a page at a time (kit/pages.ts); absent where the answer is
   * one record, or always small.
   */
  pages?: Pages<z.output<I>, z.output<O>>;
  /** The tool's structured data for checked parameters. */
  data(params: z.output<I>, context: ToolContext): Promise<z.output<O>>;
  /**
   * Structured data → the compact text answer. For a page of a list or history, `whole` is all of
   * it: a headline's figures (a series' first, last, min, max and change) are the whole's, so that
   * the first page already tells what was paid for; the rows shown are the page's.
   */
  summarise(data: z.output<O>, params: z.output<I>, whole?: z.output<O>): string;
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
    toolInput: toolInputOf(spec.input, spec.pages !== undefined),
  };
}

/** A description's last line: what a call costs, and the plans that have it when not all do. */
export function costLine(credits: string, plans: readonly Plan[]): string {
  const which = plansText(plans);
  return `Credits: ${credits}.${which === 'all' ? '' : ` Plans: ${which}.`}`;
}

/**
 * A tool's input: its parameters and `format`, in one zod schema; a list or history also takes the
 * cursor `next` gives (never sent to the service).
 */
function toolInputOf(input: z.ZodObject, paged: boolean): z.ZodObject {
  return (paged ? input.safeExtend({ cursor: cursorParam }) : input).safeExtend({ format: formatParam });
}

/** An endpoint as it is written (src/endpoints/): the tool's own fields, then the service's. */
export interface EndpointSpec<
  I extends z.ZodObject,
  O extends z.ZodObject,
  N extends string = string,
  S extends z.ZodRawShape = Record<never, never>,
> extends Omit<ToolBase<I, O>, 'name' | 'description' | 'toolInput' | 'data'> {
  name: N;
  /** Path under the base URL, with its version prefix. */
  path: string;
  /** What the tool answers and when to use it; credits, refresh and plans are appended. */
  summary: string;
  /**
   * Where the service's parameters differ from the tool's, for the sandbox: those the tool does not
   * offer because they only trim upstream fields the answer does not show (`aux`), and the
   * service's own defaults where the tool's page is smaller.
   */
  serviceParams?: S;
  /** How the service charges: the guard's estimate and the sandbox's charge both apply it. */
  credits: CreditRule<z.output<I>>;
  /**
   * Where the rows of its kept table are, when its pages do not say (a list that is not paged:
   * posts, trending tokens) or say otherwise (price performance: paged by asset, a row per period).
   */
  rows?: RowsShape;
  /** How often the endpoint's data refreshes: the cache's time to live (0: live data, never cached). */
  refreshSeconds: number;
  plans: readonly Plan[];
  /**
   * How far back a call (its parameters completed) reaches into the history, whose depth each plan
   * bounds: checked against SVC_PLAN before anything is sent. `now` is Unix seconds.
   */
  reach?(params: z.output<I>, now: number): Reach;
  /**
   * Upstream body (either documented shape) → the tool's structured data, at the server's time in
   * milliseconds (a candle still open is marked so). Throws on a body that fits neither.
   */
  normalise(body: unknown, params: z.output<I>, nowMs: number): z.output<O>;
  /**
   * What the server adds to the service's data before answering (get_key_info adds the guard's
   * figures); absent: the service's data as it is.
   */
  complete?(data: z.output<O>, context: ToolContext): Promise<z.output<O>>;
}

export interface Endpoint<
  I extends z.ZodObject = z.ZodObject,
  O extends z.ZodObject = z.ZodObject,
  N extends string = string,
  S extends z.ZodRawShape = z.ZodRawShape,
> extends Omit<EndpointSpec<I, O, N, S>, 'complete'>,
    ToolBase<I, O> {
  kind: 'endpoint';
  name: N;
  /** What the service takes: the tool's parameters and serviceParams. */
  serviceInput: z.ZodObject;
}

/** What the service takes (and the sandbox's handler reads): the tool's parameters and serviceParams. */
export type ServiceParams<E> =
  E extends Endpoint<infer I, z.ZodObject, string, infer S>
    ? Omit<z.output<I>, keyof S> & z.output<z.ZodObject<S>>
    : never;

export function defineEndpoint<
  I extends z.ZodObject,
  O extends z.ZodObject,
  const N extends string,
  S extends z.ZodRawShape = Record<never, never>,
>(spec: EndpointSpec<I, O, N, S>): Endpoint<I, O, N, S> {
  const description = `${spec.summary}\n${costLine(spec.credits.text, spec.plans)}`;
  const serviceInput = spec.serviceParams ? spec.input.safeExtend(spec.serviceParams) : spec.input;
  const { complete, ...rest } = spec;
  const endpoint: Endpoint<I, O, N, S> = {
    ...rest,
    kind: 'endpoint',
    description,
    toolInput: toolInputOf(spec.input, spec.pages !== undefined),
    serviceInput,
    async data(params, context) {
      const data = (await context.fetch(endpoint, params)).data as z.output<O>;
      return complete ? complete(data, context) : data;
    },
  };
  return endpoint;
}

/** An upstream body that fits no documented shape: a tool error, never a crash. */
export class UnexpectedBodyError extends Error {
  constructor(what: string) {
    super(`The service answered in an unexpected shape (${what}).`);
    this.name = 'UnexpectedBodyError';
  }
}

/**
 * Parse an upstream body with a lenient schema; a mismatch becomes an UnexpectedBodyError. The
 * compiled parse reads it (fast-parse.ts); where it gives way, zod says what the answer is.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const fast = fastParse(schema, body);
  if (fast) return fast.value;
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new UnexpectedBodyError(`${issue?.path.join('.') || 'body'}: ${issue?.message}`);
}

/** Built once per output: zod compiles a schema on its first parse, which would be every call. */
const dataSchemas = {
  paged: new WeakMap<z.ZodObject, z.ZodObject>(),
  whole: new WeakMap<z.ZodObject, z.ZodObject>(),
};

/**
 * What any answer may carry besides its own fields: `truncated`, set when the data was capped or
 * cut to fit SVC_MAX_ANSWER_CHARS, saying what was left out; `next`, the arguments that fetch the next page, to
 * send back as they are, on the tools that page (call/paging.ts, call/cut.ts). The names say it: no
 * description is paid for.
 */
export function dataSchema(output: z.ZodObject, paged: boolean): z.ZodObject {
  const built = paged ? dataSchemas.paged : dataSchemas.whole;
  let schema = built.get(output);
  if (!schema) {
    const truncated = z.string().optional();
    schema = output.safeExtend(
      paged ? { truncated, next: z.record(z.string(), z.unknown()).optional() } : { truncated },
    );
    built.set(output, schema);
  }
  return schema;
}

/**
 * An endpoint's normalised (and possibly cut) data, checked against its output schema: a field the
 * model would misread (a number that is not finite or outside its documented range, a missing
 * field) makes the answer an unexpected shape, never an answer; keys the schema does not name are
 * dropped.
 */
export function checkedData(endpoint: Endpoint, data: unknown): Record<string, unknown> {
  const schema = dataSchema(endpoint.output, endpoint.pages !== undefined);
  const fast = fastParse(schema, data);
  if (fast) return fast.value;
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new UnexpectedBodyError(`${issue?.path.join('.') || 'data'}: ${issue?.message}`);
}

/** `data` of a `{data, status}` envelope, or the body itself where the service answers bare. */
export function dataOf(body: unknown): unknown {
  if (body && typeof body === 'object' && !Array.isArray(body) && 'data' in body) {
    return (body as { data: unknown }).data;
  }
  return body;
}

/** The service writes some numbers as strings (`"0"`, `elapsed: "12"`): accept both. */
const NUMBER_TEXT = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i;
export const looseNumber = z.union([z.number(), z.string().regex(NUMBER_TEXT)]).transform(Number);
readWith(looseNumber, ({ giveWay }) => (v) => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : giveWay();
  return typeof v === 'string' && NUMBER_TEXT.test(v) ? Number(v) : giveWay();
});

/** Where a tool's rows are, when its answers are kept as tables: an endpoint's that answers a list. */
export function tableRows(tool: Tool): RowsShape | undefined {
  if (tool.kind === 'local') return undefined;
  return tool.rows ?? tool.pages?.rows;
}
