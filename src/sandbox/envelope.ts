/**
 * Response bodies. Every answer carries the spec's status object; errors are the status object
 * alone with credit_count 0 (docs/service.md, "Errors"). Bodies are built as strings, so a cached `data` part
 * is never serialised twice on the hot path.
 */

/** How an endpoint wraps its data (spec, "Status object" and the DEX platform rows). */
export type EnvelopeKind =
  /** `{data, status}` with `error_code` the integer 0 */
  | 'standard'
  /** `{data, status}` with `error_code` the string "0" (index and community endpoints) */
  | 'string-code'
  /** the data alone, without a wrapper (DEX platform endpoints) */
  | 'bare';

/** A refusal: HTTP status, the service's error code and a message that says what to do. */
export class ApiError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function badRequest(message: string): ApiError {
  return new ApiError(400, 400, message);
}

export interface StatusFields {
  timestamp: string;
  errorCode: number | string;
  errorMessage: string | null;
  elapsed: number;
  creditCount: number;
  totalCount?: number;
}

function statusJson(s: StatusFields): string {
  const total = s.totalCount === undefined ? '' : `,"total_count":${s.totalCount}`;
  return `{"timestamp":"${s.timestamp}","error_code":${JSON.stringify(s.errorCode)},"error_message":${JSON.stringify(s.errorMessage)},"elapsed":${s.elapsed},"credit_count":${s.creditCount},"notice":""${total}}`;
}

export function successBody(kind: EnvelopeKind, dataJson: string, status: StatusFields): string {
  if (kind === 'bare') return dataJson;
  return `{"data":${dataJson},"status":${statusJson(status)}}`;
}

export function errorBody(error: ApiError, timestamp: string, elapsed: number): string {
  return `{"status":${statusJson({ timestamp, errorCode: error.code, errorMessage: error.message, elapsed, creditCount: 0 })}}`;
}
