/**
 * The sandbox Market Data Service: a local, offline HTTP implementation of the spec on loopback,
 * used by `svc-mcp sandbox`, by the server's embedded default (no API key) and by the tests.
 *
 * A request goes: fault plan → route → key → minute limit → plan → parameters → monthly credits →
 * handler → charge (200 only). Each refusal is the spec's status object with a message that says
 * what to do.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { keyInfo } from '../catalog/account.js';
import { currencyCount } from '../catalog/credits.js';
import { DEFAULT_KEY_HEADER } from '../catalog/define.js';
import { coerceQuery, validateParams } from '../catalog/params.js';
import type { Plan } from '../catalog/plans.js';
import { planTitle } from '../catalog/plans.js';
import { Ledger, PLAN_OF_KEY, SANDBOX_KEYS, type Windows } from './accounts.js';
import { createClock } from './clock.js';
import { ApiError, badRequest, errorBody, successBody } from './envelope.js';
import { FaultPlan, type FaultRule } from './faults.js';
import { ROUTES } from './routes/index.js';

export { SANDBOX_KEYS } from './accounts.js';
export { FAULT_KINDS, type FaultKind, type FaultRule, parseFaultSpec } from './faults.js';

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
}

export interface SandboxStats {
  /** Every request that reached the server, faulted and refused ones included. */
  requests: number;
  byPath: Map<string, number>;
}

export interface Sandbox {
  /** Base URL, no trailing slash. */
  url: string;
  keys: readonly string[];
  close(): Promise<void>;
  faults: { add(rule: FaultRule): void; clear(): void };
  stats: SandboxStats;
}

const JSON_TYPE = 'application/json; charset=utf-8';
/** The one `stats.byPath` entry for every path the sandbox does not serve. */
export const UNKNOWN_PATHS = '(unknown paths)';

/** Starts the sandbox on loopback and resolves once it listens. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const clock = createClock(options.now);
  const keyHeader = (options.keyHeader ?? DEFAULT_KEY_HEADER).toLowerCase();
  const rateLimit = options.rateLimit ?? true;
  const ledger = new Ledger({ rateLimit, monthlyCredits: options.monthlyCredits });
  const faults = new FaultPlan(options.faults);
  const stats: SandboxStats = { requests: 0, byPath: new Map() };
  const startedMs = Date.now();
  const timers = new Set<NodeJS.Timeout>();

  /**
   * Metering windows. A frozen clock never reaches the next minute, so its rate-limit minute runs
   * on real time since start: a long session under --now is not locked out for good.
   */
  function windowsAt(nowMs: number): { windows: Windows; secondsToNextMinute: number } {
    const minuteMs = clock.frozen ? Date.now() - startedMs : nowMs;
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

  function send(
    res: ServerResponse,
    status: number,
    body: string,
    headers: Record<string, string> = {},
  ): void {
    res.writeHead(status, {
      'content-type': JSON_TYPE,
      'content-length': Buffer.byteLength(body),
      ...headers,
    });
    res.end(body);
  }

  function sendError(res: ServerResponse, error: ApiError, timestamp: string, elapsed: number): void {
    send(res, error.httpStatus, errorBody(error, timestamp, elapsed), error.headers);
  }

  function respond(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: string,
    truncate: boolean,
  ): void {
    const started = performance.now();
    const nowMs = clock.nowMs();
    const timestamp = new Date(nowMs).toISOString();
    // Under a frozen clock `elapsed` is 0, so that bodies are the same byte for byte.
    const elapsed = () => (clock.frozen ? 0 : Math.round(performance.now() - started));
    try {
      const route = ROUTES.get(path);
      if (!route) {
        throw new ApiError(
          404,
          404,
          `Unknown path "${path}". The sandbox serves: ${[...ROUTES.keys()].join(', ')}.`,
        );
      }
      if (req.method !== 'GET')
        throw new ApiError(405, 405, `Method ${req.method} is not allowed: every endpoint is GET.`);
      const key = req.headers[keyHeader];
      if (key === undefined || key === '' || Array.isArray(key)) {
        throw new ApiError(
          401,
          1002,
          `API key missing: send it in the "${options.keyHeader ?? DEFAULT_KEY_HEADER}" header.`,
        );
      }
      const plan = PLAN_OF_KEY.get(key);
      if (!plan)
        throw new ApiError(
          401,
          1001,
          `This API key is invalid. The sandbox's keys are ${SANDBOX_KEYS.join(', ')}.`,
        );
      const { windows, secondsToNextMinute } = windowsAt(nowMs);
      ledger.admit(key, plan, windows, secondsToNextMinute);
      if (!route.plans.includes(plan)) {
        throw new ApiError(
          403,
          1006,
          `Your plan (${planTitle(plan)}) does not include ${path}; plans that include it: ${route.plans.map(planTitle).join(', ')}.`,
        );
      }
      const coerced = coerceQuery(route.input, new URLSearchParams(query));
      if (!coerced.ok) throw badRequest(coerced.message);
      const checked = validateParams(route.input, coerced.value);
      if (!checked.ok) throw badRequest(checked.message);
      const params = checked.value as Record<string, unknown>;
      if (plan === 'basic' && currencyCount(params) > 1) {
        const name = params.convert_id !== undefined ? 'convert_id' : 'convert';
        throw badRequest(
          `Invalid value for "${name}": your plan (Basic) is limited to one convert option; send a single currency.`,
        );
      }
      // Key info costs nothing and must still answer when the month's credits are spent.
      if (path !== keyInfo.path) ledger.checkCredits(key, plan, windows);
      const result = route.handle({ params, now: Math.floor(nowMs / 1000), plan, key, ledger, windows });
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
      if (truncate) {
        // A body cut in the middle with honest framing: the client receives broken JSON. Not charged.
        const bytes = Buffer.from(body);
        const cut = bytes.subarray(0, Math.floor(bytes.length / 2));
        res.writeHead(200, { 'content-type': JSON_TYPE, 'content-length': cut.length });
        res.end(cut);
        return;
      }
      ledger.charge(key, windows, credits);
      send(res, 200, body);
    } catch (error) {
      if (error instanceof ApiError) {
        sendError(res, error, timestamp, elapsed());
      } else {
        console.error('sandbox: internal error', error);
        sendError(res, new ApiError(500, 500, 'Internal sandbox error.'), timestamp, elapsed());
      }
    }
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const query = q < 0 ? '' : url.slice(q + 1);
    stats.requests++;
    // Counted per known path; every other path shares one entry, so the map stays bounded.
    const counted = ROUTES.has(path) ? path : UNKNOWN_PATHS;
    stats.byPath.set(counted, (stats.byPath.get(counted) ?? 0) + 1);
    const fault = faults.take(path);
    if (fault) answerWithFault(fault, req, res, path, query);
    else respond(req, res, path, query, false);
  }

  function answerWithFault(
    fault: FaultRule,
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: string,
  ): void {
    const timestamp = new Date(clock.nowMs()).toISOString();
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
          timers.delete(timer);
          respond(req, res, path, query, false);
        }, fault.ms ?? 1000);
        timers.add(timer);
        break;
      }
      case 'truncate':
        respond(req, res, path, query, true);
        break;
    }
  }

  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    keys: SANDBOX_KEYS,
    faults: { add: (rule) => faults.add(rule), clear: () => faults.clear() },
    stats,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
