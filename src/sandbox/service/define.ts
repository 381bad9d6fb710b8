/**
 * How the sandbox writes down one endpoint of the service: its path, its parameters' rules, the
 * rules between them, the plans that have it, what it charges and how often its data refreshes.
 * `readQuery` applies the rules to a query string, with the first problem in one sentence that
 * names the parameter and what is allowed.
 */
import { z } from 'zod';
import type { Rule } from './params.js';
import type { Plan } from './plans.js';

/** The header the service reads the API key from (docs/service.md, "Calling it"). */
export const KEY_HEADER = 'X-SVC_PRO_API_KEY';

export interface Charge {
  /** Credits for a call with these parameters that returned `items` records. */
  charge(params: Record<string, unknown>, items: number): number;
}

/** How many currencies a call names (convert or convert_id), default one (USD). */
export function currencyCount(params: Record<string, unknown>): number {
  const list = params.convert ?? params.convert_id;
  return typeof list === 'string' ? list.split(',').length : 1;
}

/** The same credits per call, plus one per currency beyond the first when `convert` says so. */
export function perCall(credits: number, options: { convert?: boolean } = {}): Charge {
  return { charge: (params) => credits + (options.convert ? currencyCount(params) - 1 : 0) };
}

/** 1 per started `per` records (at least 1), plus `base`, plus extra currencies when `convert`. */
export function perItems(per: number, options: { base?: number; convert?: boolean } = {}): Charge {
  return {
    charge: (params, items) =>
      Math.max(1, (options.base ?? 0) + Math.ceil(items / per)) +
      (options.convert ? currencyCount(params) - 1 : 0),
  };
}

export interface ServiceEndpoint<S extends z.ZodRawShape = z.ZodRawShape> {
  path: string;
  params: S;
  /** The parameters' rules as one schema, built once. */
  schema: z.ZodObject<S>;
  rules: readonly Rule[];
  plans: readonly Plan[];
  credits: Charge;
  /** How often the data changes, in seconds (0: live). */
  refreshSeconds: number;
}

export function endpoint<S extends z.ZodRawShape>(
  spec: Omit<ServiceEndpoint<S>, 'rules' | 'schema'> & { rules?: readonly Rule[] },
): ServiceEndpoint<S> {
  return { rules: [], ...spec, schema: z.object(spec.params) };
}

/** The parameters a handler receives: checked, typed and defaulted. */
export type ParamsOf<E> = E extends ServiceEndpoint<infer S> ? z.output<z.ZodObject<S>> : never;

export type QueryResult = { ok: true; params: Record<string, unknown> } | { ok: false; message: string };

/** The query's parameters, each given once and known, checked by their rules and then by the endpoint's. */
export function readQuery(endpoint: ServiceEndpoint, query: URLSearchParams): QueryResult {
  const raw: Record<string, string> = Object.create(null);
  for (const [name, value] of query) {
    if (name in raw) return { ok: false, message: `Parameter "${clip(name)}" is repeated; send it once.` };
    if (!Object.hasOwn(endpoint.params, name)) {
      const takes = Object.keys(endpoint.params).join(', ') || 'none';
      return { ok: false, message: `Unknown parameter "${clip(name)}"; this endpoint takes: ${takes}.` };
    }
    raw[name] = value;
  }
  const parsed = endpoint.schema.safeParse(raw);
  if (!parsed.success) return { ok: false, message: issueText(parsed.error.issues[0], raw) };
  const params = parsed.data as Record<string, unknown>;
  for (const rule of endpoint.rules) {
    const problem = rule(params);
    if (problem) return { ok: false, message: sentence(problem.name, problem.message, true) };
  }
  return { ok: true, params };
}

function issueText(issue: z.core.$ZodIssue | undefined, raw: Record<string, string>): string {
  const name = String(issue?.path[0] ?? '');
  return sentence(name, issue?.message ?? 'is not valid', raw[name] !== undefined);
}

function sentence(name: string, message: string, given: boolean): string {
  if (name === '') return `Missing parameter: ${message}.`;
  if (!given) return `Missing parameter "${name}": it is required.`;
  return `Invalid value for "${name}": ${message}.`;
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
