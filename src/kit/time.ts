/**
 * Times as the tools take them, one rule for every tool's parameters: Unix seconds or ISO 8601, a
 * real calendar instant (2026-02-30 is refused, not turned into 2 March), from 2010 (before any of
 * the service's data) to one day past now. The sandbox reads times by a rule of its own, written from
 * the service's documentation, as a witness.
 */

import { clip } from '../messages.js';

/** 2010-01-01T00:00:00Z: no data reaches further back. */
export const EARLIEST_TIME = Date.UTC(2010, 0, 1) / 1000;
const DAY = 86_400;

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** Unix seconds of an ISO 8601 text, or undefined when it names no real instant. */
function isoSeconds(text: string): number | undefined {
  const m = ISO.exec(text);
  if (!m) return undefined;
  // The first three groups always match; the time's may not.
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = m
    .slice(1, 7)
    .map((v) => (v === undefined ? undefined : Number(v)));
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  const back = new Date(ms);
  // Date.UTC rolls 30 February into March and 25:00 into the next day: a real instant round-trips.
  if (back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day || back.getUTCHours() !== hour)
    return undefined;
  if (minute > 59 || second > 59) return undefined;
  const zone = m[7];
  let offset = 0;
  if (zone && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const hours = Number(digits.slice(0, 2));
    const minutes = Number(digits.slice(2));
    if (hours > 14 || minutes > 59) return undefined;
    offset = sign * (hours * 3600 + minutes * 60);
  }
  return ms / 1000 - offset;
}

/** Unix seconds of a time as given (Unix seconds or ISO 8601), whatever its range; undefined when it is neither. */
function readSeconds(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
  const text = value.trim();
  return /^\d{1,12}$/.test(text) ? Number(text) : isoSeconds(text);
}

/** Unix seconds or ISO 8601 within the service's range; `undefined` when the value is not. */
export function parseTime(value: string | number, nowSeconds = Date.now() / 1000): number | undefined {
  const seconds = readSeconds(value);
  if (seconds === undefined || seconds < EARLIEST_TIME || seconds > nowSeconds + DAY) return undefined;
  return Math.floor(seconds);
}

/**
 * What is wrong with a time given to a tool, in words that name the value: empty, not a time, in
 * the future, before the service's data; undefined when it is a time the service takes.
 */
export function timeProblem(value: string | number, nowSeconds = Date.now() / 1000): string | undefined {
  if (typeof value === 'string' && value.trim() === '') return `is empty: ${TIME_FORMS}`;
  if (typeof value === 'string' && value.length > 40)
    return `is not a date and time (at most 40 characters): ${TIME_FORMS}`;
  const seconds = readSeconds(value);
  if (seconds === undefined)
    return `is not a date and time (got "${clip(String(value), 40)}"): ${TIME_FORMS}`;
  // Past year 9999 an instant has no ISO 8601 form: the value as given.
  const at = (s: number) =>
    s < 253_402_300_800
      ? new Date(Math.floor(s) * 1000).toISOString().replace('.000Z', 'Z')
      : clip(String(value), 40);
  if (seconds > nowSeconds + DAY) return `is in the future (${at(seconds)}): the service has data up to now`;
  if (seconds < EARLIEST_TIME)
    return `is before 2010-01-01 (${at(seconds)}), where the service's data begins`;
  return undefined;
}

const TIME_FORMS = 'give Unix seconds or ISO 8601 (e.g. 2026-11-01 or 2026-11-01T12:00:00Z)';
