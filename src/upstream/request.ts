/**
 * One request to the service and its answer read: sent through undici's dispatcher API, bounded in
 * time and size, the body parsed, its status object read, the key redacted from what came back.
 */
import type { Dispatcher } from 'undici';
import { oneLine } from '../format/text.js';
import { CALL_CANCELLED } from '../messages.js';
import { UpstreamError } from './errors.js';
import { redactKey } from './redact.js';

/**
 * The most of a response body read: far above the largest real answer (a full listings page in
 * several currencies is a few MB), far below what would hurt the process. Reading stops there.
 */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/**
 * The answer's body, or the failure it reports: an HTTP error, or a 200 whose `status.error_code`
 * is not 0 (an error all the same). The key is redacted from whatever the service echoed.
 */
export function readResponse(
  response: RawResponse,
  apiKey: string,
): { body: unknown; creditCount: number | undefined; raw?: Buffer } {
  const bytes = Buffer.concat(response.chunks);
  const text = bytes.toString('utf8');
  const parsed = parseJson(text);
  const body = redactKey(parsed, text, apiKey);
  const status = statusOf(body);
  if (response.statusCode !== 200 || (status.code !== undefined && status.code !== 0)) {
    throw new UpstreamError(
      'http',
      response.statusCode,
      status.code ?? response.statusCode,
      status.message ?? `HTTP ${response.statusCode}`,
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
  // The bytes as sent, only when they hold nothing of the key: what a kept result may store as is.
  return { body, creditCount: status.credits, ...(body === parsed ? { raw: bytes } : {}) };
}

export interface RawResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as it arrived, joined only when read. */
  chunks: Buffer[];
}

/**
 * One request through undici's dispatcher API: the body is gathered as it arrives, with no stream or
 * AbortSignal per request. The timeout and the caller's cancel settle the call at once and abort the
 * request as soon as undici hands over its controller (a request still connecting has none yet).
 * undici hands it over (onRequestStart) on a connected socket, in the same turn as it writes the
 * request's bytes there: that is when `onSent` is told. A connection refused or still being made
 * never gets that far, and neither does a request cancelled before it (aborted right there).
 */
export function dispatchOnce(
  dispatcher: Dispatcher,
  request: Dispatcher.DispatchOptions & {
    timeoutMs: number;
    /** What the timeout's error says, written only when it fires. */
    timeoutDetail?: () => string;
    signal?: AbortSignal;
    onSent?: () => void;
  },
): Promise<RawResponse> {
  const {
    timeoutMs,
    timeoutDetail = () => 'The service did not answer in time',
    signal,
    onSent,
    ...options
  } = request;
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let failure: UpstreamError | undefined;
    let statusCode = 0;
    let headers: RawResponse['headers'] = {};
    const chunks: Buffer[] = [];
    let received = 0;
    const tooLarge = () =>
      stop(
        new UpstreamError(
          'too_large',
          undefined,
          undefined,
          `The service's answer is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB; reading stopped there`,
        ),
      );
    const settle = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', cancel);
    };
    const stop = (error: UpstreamError) => {
      failure ??= error;
      controller?.abort(error);
      settle();
      reject(failure);
    };
    const timer = setTimeout(
      () => stop(new UpstreamError('timeout', undefined, undefined, timeoutDetail())),
      timeoutMs,
    );
    const cancel = () => stop(cancelledError());
    if (signal?.aborted) return cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    dispatcher.dispatch(options, {
      onRequestStart(started) {
        controller = started;
        if (failure) started.abort(failure);
        else onSent?.();
      },
      onResponseStart(_controller, status, responseHeaders) {
        statusCode = status;
        headers = responseHeaders;
        if (Number(responseHeaders['content-length']) > MAX_ANSWER_BYTES) tooLarge();
      },
      onResponseData(_controller, chunk) {
        if (failure) return;
        received += chunk.length;
        if (received > MAX_ANSWER_BYTES) return tooLarge();
        chunks.push(chunk);
      },
      onResponseEnd() {
        settle();
        resolve({ statusCode, headers, chunks });
      },
      onResponseError(_controller, error) {
        settle();
        reject(failure ?? error);
      },
    });
  });
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
    // The service's words, on one line: they go into the answer's text.
    message: typeof status.error_message === 'string' ? oneLine(status.error_message) : undefined,
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

/** The error of a call its caller cancelled. */
export function cancelledError(): UpstreamError {
  return new UpstreamError('cancelled', undefined, undefined, CALL_CANCELLED);
}
