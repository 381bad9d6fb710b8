/**
 * The sandbox's request handler. A request goes: fault plan → route → key → minute limit → plan →
 * parameters → monthly credits → handler → charge (200 only). Each refusal is the spec's status
 * object with a message that says what to do.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Ledger, PLAN_OF_KEY, SANDBOX_KEYS, type Windows } from './accounts.js';
import { type Clock, createClock } from './clock.js';
import { ApiError, badRequest, errorBody, successBody } from './envelope.js';
import { FaultPlan, type FaultRule } from './faults.js';
import { ROUTES } from './routes/index.js';
import type { Route, RouteResult } from './routes/types.js';
import { currencyCount, KEY_HEADER, readQuery } from './service/define.js';
import { account } from './service/index.js';
import { type Plan, planTitle } from './service/plans.js';

export interface SandboxOptions {
  /** Port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number;
  /** Freezes the clock at this instant (ISO 8601 or a Date); default real time. */
  now?: string | Date;
  /** Per-minute request limit per key; default true. Switch off for benchmarks. */
  rateLimit?: boolean;
  /** Name of the API key header; default X-SVC_PRO_API_KEY. */
  keyHeader?: string;
  /** Faults in force from the start; none by default. */
  faults?: readonly FaultRule[];
  /** Monthly credit allowances to use instead of the plans' own (tests exhaust a small one). */
  monthlyCredits?: Partial<Record<Plan, number>>;
  /** Keeps each key's usage in this file across restarts (the embedded sandbox's). */
  usageFile?: string;
  /** Keys accepted besides `sandbox-<plan>`, each with its plan (tests give people keys of their own). */
  keys?: Readonly<Record<string, Plan>>;
}

export interface SandboxStats {
  /** Every request that reached the server, faulted and refused ones included. */
  requests: number;
  byPath: Map<string, number>;
}

const JSON_TYPE = 'application/json; charset=utf-8';
/** The one `stats.byPath` entry for every path the sandbox does not serve. */
export const UNKNOWN_PATHS = '(unknown paths)';

/** A caller the sandbox knows: the key, its plan and the metering windows it is in. */
interface Caller {
  key: string;
  plan: Plan;
  windows: Windows;
}

export class SandboxHandler {
  readonly stats: SandboxStats = { requests: 0, byPath: new Map() };
  readonly faults: FaultPlan;
  private readonly clock: Clock;
  private readonly keyHeader: string;
  private readonly ledger: Ledger;
  private readonly startedMs = Date.now();
  /** Delayed answers under way (a `delay` fault), cleared when the sandbox closes. */
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(private readonly options: SandboxOptions = {}) {
    this.clock = createClock(options.now);
    this.keyHeader = (options.keyHeader ?? KEY_HEADER).toLowerCase();
    this.ledger = new Ledger({
      rateLimit: options.rateLimit ?? true,
      monthlyCredits: options.monthlyCredits,
      usageFile: options.usageFile,
    });
    this.faults = new FaultPlan(options.faults);
  }

  /** Node's request listener. */
  readonly handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const query = q < 0 ? '' : url.slice(q + 1);
    this.stats.requests++;
    // Counted per known path; every other path shares one entry, so the map stays bounded.
    const counted = ROUTES.has(path) ? path : UNKNOWN_PATHS;
    this.stats.byPath.set(counted, (this.stats.byPath.get(counted) ?? 0) + 1);
    const fault = this.faults.take(path);
    if (fault) this.answerWithFault(fault, req, res, path, query);
    else this.respond(req, res, path, query, false);
  };

  /** Delayed answers, and long ones still being built, are dropped: nothing is written after the sandbox closes. */
  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.ledger.flush();
  }

  /**
   * Metering windows. A frozen clock never reaches the next minute, so its rate-limit minute runs
   * on real time since start: a long session under --now is not locked out for good.
   */
  private windowsAt(nowMs: number): { windows: Windows; secondsToNextMinute: number } {
    const minuteMs = this.clock.frozen ? Date.now() - this.startedMs : nowMs;
    const d = new Date(nowMs);
    return {
      windows: {
        minute: Math.floor(minuteMs / 60_000),
        day: Math.floor(nowMs / 86_400_000),
        month: d.getUTCFullYear() * 12 + d.getUTCMonth(),
      },
      secondsToNextMinute: Math.max(1, Math.ceil((60_000 - (minuteMs % 60_000)) / 1000)),
    };
  }

  private respond(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: string,
    truncate: boolean,
  ): void {
    const started = performance.now();
    const nowMs = this.clock.nowMs();
    const timestamp = new Date(nowMs).toISOString();
    // Under a frozen clock `elapsed` is 0, so that bodies are the same byte for byte.
    const elapsed = () => (this.clock.frozen ? 0 : Math.round(performance.now() - started));
    const fail = (error: unknown) => {
      if (!(error instanceof ApiError)) console.error('sandbox: internal error', error);
      const known = error instanceof ApiError ? error : new ApiError(500, 500, 'Internal sandbox error.');
      sendError(res, known, timestamp, elapsed());
    };
    try {
      const route = routeOf(path, req.method);
      const caller = this.admit(req, route, path, nowMs);
      const params = paramsOf(route, query, caller.plan);
      // Key info costs nothing and must still answer when the month's credits are spent.
      if (path !== account.keyInfo.path) this.ledger.checkCredits(caller.key, caller.plan, caller.windows);
      const { ledger } = this;
      const answer = (result: RouteResult) => {
        if (this.closed) return;
        const credits = route.credits.charge(params, result.items);
        const status = {
          timestamp,
          errorCode: route.envelope === 'string-code' ? '0' : 0,
          errorMessage: null,
          elapsed: elapsed(),
          creditCount: credits,
          totalCount: result.totalCount,
        };
        const body = successBody(route.envelope, result.dataJson, status);
        // A body cut in the middle with honest framing: the client receives broken JSON. Not charged.
        if (truncate) send(res, 200, Buffer.from(body).subarray(0, Math.floor(Buffer.byteLength(body) / 2)));
        else {
          this.ledger.charge(caller.key, caller.windows, credits);
          send(res, 200, body);
        }
      };
      const result = route.handle({ params, now: Math.floor(nowMs / 1000), ...caller, ledger });
      if (result instanceof Promise) result.then(answer).catch(fail);
      else answer(result);
    } catch (error) {
      fail(error);
    }
  }

  /** The caller by its key, within its minute's limit and on a plan that has the route. */
  private admit(req: IncomingMessage, route: Route, path: string, nowMs: number): Caller {
    const key = req.headers[this.keyHeader];
    if (key === undefined || key === '' || Array.isArray(key)) {
      const header = this.options.keyHeader ?? KEY_HEADER;
      throw new ApiError(401, 1002, `API key missing: send it in the "${header}" header.`);
    }
    const plan =
      PLAN_OF_KEY.get(key) ??
      (Object.hasOwn(this.options.keys ?? {}, key) ? this.options.keys?.[key] : undefined);
    if (!plan)
      throw new ApiError(
        401,
        1001,
        `This API key is invalid. The sandbox's keys are ${SANDBOX_KEYS.join(', ')}.`,
      );
    const { windows, secondsToNextMinute } = this.windowsAt(nowMs);
    this.ledger.admit(key, plan, windows, secondsToNextMinute);
    if (!route.plans.includes(plan)) {
      throw new ApiError(
        403,
        1006,
        `Your plan (${planTitle(plan)}) does not include ${path}; plans that include it: ${route.plans.map(planTitle).join(', ')}.`,
      );
    }
    return { key, plan, windows };
  }

  private answerWithFault(
    fault: FaultRule,
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: string,
  ): void {
    const timestamp = new Date(this.clock.nowMs()).toISOString();
    switch (fault.kind) {
      case 'reset':
        req.socket.destroy();
        break;
      case '500':
        sendError(res, new ApiError(500, 500, 'Internal server error (sandbox fault).'), timestamp, 0);
        break;
      case '429': {
        const retryAfter = fault.retryAfter ?? 1;
        const message = `Rate limit reached (sandbox fault); retry after ${retryAfter} s.`;
        sendError(res, new ApiError(429, 1008, message, { 'retry-after': String(retryAfter) }), timestamp, 0);
        break;
      }
      case 'delay': {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          this.respond(req, res, path, query, false);
        }, fault.ms ?? 1000);
        this.timers.add(timer);
        break;
      }
      case 'truncate':
        this.respond(req, res, path, query, true);
        break;
    }
  }
}

/** The route at `path`, which takes GET only. */
function routeOf(path: string, method: string | undefined): Route {
  const route = ROUTES.get(path);
  if (!route)
    throw new ApiError(
      404,
      404,
      `Unknown path "${path}". The sandbox serves: ${[...ROUTES.keys()].join(', ')}.`,
    );
  if (method !== 'GET')
    throw new ApiError(405, 405, `Method ${method} is not allowed: every endpoint is GET.`);
  return route;
}

/** The query's parameters, checked by the endpoint's rules and the plan's convert rule. */
function paramsOf(route: Route, query: string, plan: Plan): Record<string, unknown> {
  const read = readQuery(route, new URLSearchParams(query));
  if (!read.ok) throw badRequest(read.message);
  const { params } = read;
  if (plan === 'basic' && currencyCount(params) > 1) {
    const name = params.convert_id !== undefined ? 'convert_id' : 'convert';
    throw badRequest(
      `Invalid value for "${name}": your plan (Basic) is limited to one convert option; send a single currency.`,
    );
  }
  return params;
}

function send(
  res: ServerResponse,
  status: number,
  body: string | Buffer,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

function sendError(res: ServerResponse, error: ApiError, timestamp: string, elapsed: number): void {
  send(res, error.httpStatus, errorBody(error, timestamp, elapsed), error.headers);
}
