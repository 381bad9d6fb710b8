/**
 * The step before the estimate: a list or history call asks the service for no more records than
 * its answer can carry within SVC_MAX_ANSWER_CHARS (the endpoint's declared record size,
 * catalog/pages.ts), so that the estimate, the reservation, the request and the charge cover only
 * what is returned. The answer then says it was capped and carries the next page's arguments
 * under `next`.
 */
import type { Endpoint } from '../catalog/define.js';
import { boundText, dataRoom } from './cut.js';

/** Part of the room left to the answer's other fields (the interval, each series' name and id). */
const RECORDS_SHARE = 0.95;

export interface Page {
  /** The parameters to estimate, reserve and send. */
  params: Record<string, unknown>;
  /** The arguments of the next page, and what the answer says about it, when the call was capped. */
  capped?: {
    next?: Record<string, unknown>;
    note: string;
    /** The answer holds fewer records than this page asked for: the service had no more. */
    ranOut?: (data: Record<string, unknown>) => boolean;
  };
}

/** The most records an answer of `endpoint` holds with these parameters, or undefined where it does not page. */
function recordsPerAnswer(
  endpoint: Endpoint,
  params: Record<string, unknown>,
  maxChars: number,
): number | undefined {
  const pages = endpoint.pages;
  if (!pages) return undefined;
  return Math.max(1, Math.floor((dataRoom(maxChars) * RECORDS_SHARE) / pages.recordBytes(params as never)));
}

/**
 * The call's checked parameters with what the tool fills in itself (a series' count from its time
 * range): what is cached, estimated, paged and sent.
 */
export function completed(
  endpoint: Endpoint,
  params: Record<string, unknown>,
  now: number,
): Record<string, unknown> {
  return endpoint.pages?.complete?.(params as never, now) ?? params;
}

/**
 * The call's (completed) parameters lowered to what one answer carries, or to what the service
 * itself returns where it has a limit of its own, with the next page's arguments.
 */
export function pageOf(
  endpoint: Endpoint,
  params: Record<string, unknown>,
  now: number,
  maxChars: number,
): Page {
  const pages = endpoint.pages;
  const fits = recordsPerAnswer(endpoint, params, maxChars);
  if (!pages || fits === undefined) return { params };
  const limit = pages.serviceMost?.(params as never);
  const byService = limit !== undefined && limit.records < fits;
  const lowered = pages.lower(params as never, byService ? limit.records : fits, now);
  if (!lowered) return { params };
  const { param } = pages;
  const asked = Number(params[param]).toLocaleString('en-US');
  // The page's size as the argument is written (no thousands separator), so that it can be sent back as it is.
  const sent = Number(lowered.params[param]);
  const rest = lowered.next ? 'send `next` as the arguments for the next page' : 'this is as far as it goes';
  const why = byService
    ? `: ${limit.why}`
    : ` to stay within ${boundText(maxChars)} (SVC_MAX_ANSWER_CHARS; and paid for as such)`;
  return {
    params: lowered.params,
    capped: {
      next: lowered.next,
      note: `Capped to ${param}=${sent} of ${asked}${why}; ${rest}.`,
      ranOut: (data) => (pages.returned?.(data) ?? Number.POSITIVE_INFINITY) < sent,
    },
  };
}

/**
 * The answer's data with the page's note and next arguments, unless the data was cut after the
 * fact (records larger than declared): then the cut's own note stands, as `next` would skip what
 * the cut left out. An answer with fewer records than the page asked for is the whole rest: no
 * note, no next page (sent back, it would only buy empty pages).
 */
export function withPage(data: Record<string, unknown>, page: Page): Record<string, unknown> {
  if (!page.capped || data.truncated !== undefined || page.capped.ranOut?.(data)) return data;
  return { ...data, truncated: page.capped.note, next: page.capped.next };
}
