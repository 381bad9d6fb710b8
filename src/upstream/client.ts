/**
 * The one authenticated client every tool call goes through: one keep-alive dispatcher for the
 * process, the key in a header (never in a URL), a timeout per request, the caller's cancel signal,
 * and retries only where they can help, bounded so a tool call never waits more than 20 s in all.
 */
import type { Agent, Dispatcher } from 'undici';
import { UpstreamError } from './errors.js';

// undici is loaded on first use rather than at start-up: the MCP `initialize` answer does not need it.
let undici: Promise<typeof import('undici')> | undefined;
function loadUndici() {
  undici ??= import('undici');
  return undici;
}

export interface UpstreamOptions {
  baseUrl: string;
  apiKey: string;
  keyHeader: string;
  timeoutMs: number;
  /** Longest a call may take, retries and waits included. */
  totalBudgetMs?: number;
  maxAttempts?: number;
}

export interface UpstreamAnswer {
  body: unknown;
  /** `status.credit_count` as the service reported it, when it did. */
  creditCount: number | undefined;
  attempts: number;
}

export type QueryParams = Record<string, string | number | boolean | undefined>;

const BACKOFF_BASE_MS = 200;
const BACKOFF_CAP_MS = 4_000;

export class UpstreamClient {
  private dispatcher: Agent | undefined;
  private readonly budgetMs: number;
  private readonly maxAttempts: number;

  constructor(private readonly options: UpstreamOptions) {
    this.budgetMs = options.totalBudgetMs ?? 20_000;
    this.maxAttempts = options.maxAttempts ?? 4;
  }

  /** GET a path with query parameters; throws UpstreamError (with `attempts`) when it cannot answer. */
  async get(path: string, params: QueryParams, signal?: AbortSignal): Promise<UpstreamAnswer> {
    const url = buildUrl(this.options.baseUrl, path, params);
    const deadline = Date.now() + this.budgetMs;
    for (let attempt = 1; ; attempt++) {
      try {
        const { body, creditCount } = await this.once(url, deadline, signal);
        return { body, creditCount, attempts: attempt };
      } catch (caught) {
        const error = asUpstreamError(caught, signal);
        const wait = error.retryable && attempt < this.maxAttempts ? retryDelay(error, attempt) : undefined;
        if (wait === undefined || Date.now() + wait >= deadline - 50) {
          error.attempts = attempt;
          throw error;
        }
        await sleep(wait, signal);
      }
    }
  }

  /** Load the HTTP stack now, in the background, so the first call does not wait for it. */
  warm(): void {
    void loadUndici();
  }

  async close(): Promise<void> {
    await this.dispatcher?.close();
  }

  /** The service may echo what it was sent; the key must never reach a message. */
  private redact(text: string): string {
    return text.replaceAll(this.options.apiKey, '[redacted]');
  }

  private async once(url: string, deadline: number, signal?: AbortSignal) {
    const { Agent, request } = await loadUndici();
    this.dispatcher ??= new Agent({
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 120_000,
      connections: 32,
    });
    const timeoutMs = Math.max(1, Math.min(this.options.timeoutMs, deadline - Date.now()));
    // One controller and one timer per attempt, both released as soon as the answer is read:
    // AbortSignal.timeout would keep every signal alive for the full timeout.
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new DOMException('timed out', 'TimeoutError')),
      timeoutMs,
    );
    const cancel = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      const response = await request(url, {
        method: 'GET',
        dispatcher: this.dispatcher,
        headers: { [this.options.keyHeader]: this.options.apiKey, accept: 'application/json' },
        signal: controller.signal,
      });
      return await this.read(response);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', cancel);
    }
  }

  private async read(response: Dispatcher.ResponseData): Promise<{ body: unknown; creditCount?: number }> {
    const text = await response.body.text();
    const body = parseJson(text);
    if (response.statusCode !== 200) {
      const status = statusOf(body);
      throw new UpstreamError(
        'http',
        response.statusCode,
        status.code ?? response.statusCode,
        this.redact(status.message ?? `HTTP ${response.statusCode}`),
        retryAfterSeconds(response.headers['retry-after']),
      );
    }
    if (body === undefined) {
      throw new UpstreamError(
        'malformed',
        undefined,
        undefined,
        'The service sent a body that is not valid JSON',
      );
    }
    return { body, creditCount: statusOf(body).credits };
  }
}

function buildUrl(baseUrl: string, path: string, params: QueryParams): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) query.set(key, String(value));
  }
  const search = query.toString();
  return `${baseUrl}${path}${search ? `?${search}` : ''}`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `status.error_code` (number or string), `error_message` and `credit_count` of a body, if any. */
function statusOf(body: unknown): { code?: number; message?: string; credits?: number } {
  const status = (body as { status?: Record<string, unknown> } | undefined)?.status;
  if (!status || typeof status !== 'object') return {};
  const code = Number(status.error_code);
  const credits = Number(status.credit_count);
  return {
    code: Number.isFinite(code) && status.error_code !== null ? code : undefined,
    message: typeof status.error_message === 'string' ? status.error_message : undefined,
    credits: Number.isFinite(credits) && status.credit_count !== undefined ? credits : undefined,
  };
}

function retryAfterSeconds(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

function asUpstreamError(caught: unknown, signal?: AbortSignal): UpstreamError {
  if (caught instanceof UpstreamError) return caught;
  if (signal?.aborted) return new UpstreamError('cancelled', undefined, undefined, 'The call was cancelled');
  const error = caught as { name?: string; code?: string; message?: string };
  if (error?.name === 'TimeoutError' || error?.code === 'UND_ERR_HEADERS_TIMEOUT') {
    return new UpstreamError('timeout', undefined, undefined, 'The service did not answer in time');
  }
  return new UpstreamError(
    'network',
    undefined,
    undefined,
    `The connection to the service failed (${error?.code ?? error?.name ?? 'error'})`,
  );
}

/** Milliseconds to wait before the next attempt: Retry-After if given, else jittered backoff. */
function retryDelay(error: UpstreamError, attempt: number): number {
  if (error.retryAfterSeconds !== undefined) return error.retryAfterSeconds * 1000;
  if (error.code === 1008) return (60 - new Date().getUTCSeconds()) * 1000;
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(new UpstreamError('cancelled', undefined, undefined, 'The call was cancelled'));
    }
    signal?.addEventListener('abort', abort, { once: true });
  });
}
