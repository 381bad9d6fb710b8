/**
 * The one way to define an endpoint. Everything else (the MCP tools, the CLI, the docs, the
 * manifest, the sandbox's parameter checks and charges, the cache and the credit guard) reads these.
 */
import { z } from 'zod';
import type { CreditRule } from './credits.js';
import { cursorParam, type Pages } from './pages.js';
import type { Plan } from './plans.js';
import { costLine, type ToolBase, type ToolContext, withFormatParam } from './tool.js';

/** An endpoint as the catalog writes it: the tool's own fields, then the service's. */
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
   * How a list or history is shown a page at a time (catalog/pages.ts); absent where the answer is
   * one record, or always small.
   */
  pages?: Pages<z.output<I>, z.output<O>>;
  /** How often the endpoint's data refreshes: the cache's time to live (0: live data, never cached). */
  refreshSeconds: number;
  plans: readonly Plan[];
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
    // A list or history takes the cursor `next` gives; the service never sees it.
    toolInput: withFormatParam(spec.pages ? spec.input.safeExtend({ cursor: cursorParam }) : spec.input),
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

/** Parse an upstream body with a lenient schema; a mismatch becomes an UnexpectedBodyError. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new UnexpectedBodyError(`${issue.path.join('.') || 'body'}: ${issue.message}`);
}

/** Built once per output: zod compiles a schema on its first parse, which would be every call. */
const dataSchemas = {
  paged: new WeakMap<z.ZodObject, z.ZodObject>(),
  whole: new WeakMap<z.ZodObject, z.ZodObject>(),
};

/**
 * What any answer may carry besides its own fields: `truncated`, set when the data was capped or
 * cut to fit SVC_MAX_ANSWER_CHARS, saying what was left out; `next`, the arguments that fetch the next page, to
 * send back as they are, on the tools that page (call/pages.ts, call/cut.ts). The names say it: no
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
  const result = dataSchema(endpoint.output, endpoint.pages !== undefined).safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new UnexpectedBodyError(`${issue.path.join('.') || 'data'}: ${issue.message}`);
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
