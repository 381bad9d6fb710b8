/**
 * The one way to define an endpoint. Everything else (the MCP tools, the CLI, the docs, the
 * manifest, the sandbox's parameter checks, and later the cache and the credit guard) reads these.
 */
import { z } from 'zod';
import { formatDuration } from '../format/text.js';

/** The header the service reads the API key from (the spec's name; configurable on both sides). */
export const DEFAULT_KEY_HEADER = 'X-SVC_PRO_API_KEY';

export const PLANS = ['basic', 'hobbyist', 'startup', 'standard', 'professional', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export const ALL_PLANS: readonly Plan[] = PLANS;

/** Plans from `first` upward: the service's plans are cumulative. */
export function plansFrom(first: Plan): readonly Plan[] {
  return PLANS.slice(PLANS.indexOf(first));
}

export const TOOLSETS = {
  global_metrics: 'Global market totals, latest and historical',
  sentiment: 'Fear and greed, altcoin season',
  indices: 'The svc100 and svc20 market indices',
  community: 'Community trending tokens and topics',
  dex: 'DEX platforms',
  cryptocurrency: 'Cryptocurrency listings and quotes',
} as const;
export type Toolset = keyof typeof TOOLSETS;
export const DEFAULT_TOOLSETS: readonly Toolset[] = Object.keys(TOOLSETS) as Toolset[];

export interface EndpointSpec<I extends z.ZodObject, O extends z.ZodObject> {
  /** MCP tool name, as DESIGN.md fixes it. */
  name: string;
  title: string;
  toolset: Toolset;
  /** Path under the base URL, with its version prefix. */
  path: string;
  /** What the tool answers and when to use it; credits, refresh and plans are appended. */
  summary: string;
  input: I;
  output: O;
  credits: {
    /** How the service charges, in words, for the description. */
    rule: string;
    /** Credits a call with these parameters is expected to cost, before it is sent. */
    estimate(params: z.output<I>): number;
  };
  /** How often the endpoint's data refreshes: the cache's time to live. */
  refreshSeconds: number;
  plans: readonly Plan[];
  /** Upstream body (either documented shape) → the tool's structured data. Throws on a body that fits neither. */
  normalise(body: unknown, params: z.output<I>): z.output<O>;
  /** Structured data → the compact text answer. */
  summarise(data: z.output<O>, params: z.output<I>): string;
}

export interface Endpoint<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject>
  extends EndpointSpec<I, O> {
  /** The full tool description: summary, then credits, refresh frequency and plans. */
  description: string;
}

export function defineEndpoint<I extends z.ZodObject, O extends z.ZodObject>(
  spec: EndpointSpec<I, O>,
): Endpoint<I, O> {
  const plans = spec.plans.length === PLANS.length ? 'all plans' : spec.plans.map(planTitle).join(', ');
  const description = [
    spec.summary,
    `Credits: ${spec.credits.rule}. Data refreshes every ${formatDuration(spec.refreshSeconds)}. Plans: ${plans}.`,
  ].join('\n');
  return { ...spec, description };
}

export function planTitle(plan: Plan): string {
  return plan.charAt(0).toUpperCase() + plan.slice(1);
}

/** An upstream body that fits no documented shape: a tool error, never a crash. */
export class UnexpectedBodyError extends Error {
  constructor(what: string) {
    super(`The service answered in an unexpected shape (${what}).`);
    this.name = 'UnexpectedBodyError';
  }
}

/** Parse an upstream body with a lenient schema; a mismatch becomes an UnexpectedBodyError. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new UnexpectedBodyError(`${issue.path.join('.') || 'body'}: ${issue.message}`);
}

/** `data` of a `{data, status}` envelope, or the body itself where the service answers bare. */
export function dataOf(body: unknown): unknown {
  if (body && typeof body === 'object' && !Array.isArray(body) && 'data' in body) {
    return (body as { data: unknown }).data;
  }
  return body;
}

/** The service writes some numbers as strings (`"0"`, `elapsed: "12"`): accept both. */
export const looseNumber = z
  .union([z.number(), z.string().regex(/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i)])
  .transform(Number);
