/**
 * Times and intervals as the service takes them (docs/service.md, "Endpoints"): a time is Unix
 * seconds or ISO 8601 naming a real instant from 2010 to tomorrow; an interval is a calendar
 * name (hourly … yearly) or a count of minutes, hours or days (5m, 2h, 7d).
 */

/** 2010-01-01T00:00:00Z, before any of the service's data. */
const FIRST_SECOND = Date.UTC(2010, 0, 1) / 1000;
const DAY = 86_400;

export const TIME_RULE =
  'must be a real date and time from 2010-01-01 to tomorrow, as Unix seconds or ISO 8601 (e.g. 2026-11-01 or 2026-11-01T12:00:00Z)';

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(:\d{2})?(\.\d{1,9})?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * Unix seconds of the text, or undefined when it names no real instant in range. A date that the
 * calendar does not have (30 February, 24:30) is refused: it must read back the same.
 */
export function serviceTime(text: string, nowSeconds = Date.now() / 1000): number | undefined {
  let seconds: number | undefined;
  if (/^\d{1,12}$/.test(text)) seconds = Number(text);
  else {
    const m = DATE_TIME.exec(text);
    if (!m) return undefined;
    const local = `${m[1]}T${m[2] ?? '00:00'}${m[3] ?? ':00'}`;
    const ms = Date.parse(`${local}Z`);
    if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 19) !== local) return undefined;
    const offset = zoneSeconds(m[5]);
    if (offset === undefined) return undefined;
    seconds = Math.floor(ms / 1000) - offset;
  }
  return seconds >= FIRST_SECOND && seconds <= nowSeconds + DAY ? seconds : undefined;
}

/** A zone's offset east of UTC in seconds (Z or none: 0), or undefined past ±14:59. */
function zoneSeconds(zone: string | undefined): number | undefined {
  if (zone === undefined || zone.toUpperCase() === 'Z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2));
  if (hours > 14 || minutes > 59) return undefined;
  return (zone.startsWith('-') ? -1 : 1) * (hours * 3600 + minutes * 60);
}

export const CALENDAR_INTERVALS = ['hourly', 'daily', 'weekly', 'monthly', 'yearly'] as const;

/** Seconds in each calendar interval (months and years by their mean length). */
const CALENDAR_SECONDS: Readonly<Record<string, number>> = {
  hourly: 3_600,
  daily: DAY,
  weekly: 7 * DAY,
  monthly: 2_629_800,
  yearly: 31_557_600,
};
const UNIT_SECONDS: Readonly<Record<string, number>> = { m: 60, h: 3_600, d: DAY };

/** Length of an interval in seconds. */
export function intervalSeconds(interval: string): number {
  const calendar = CALENDAR_SECONDS[interval];
  if (calendar !== undefined) return calendar;
  return Number(interval.slice(0, -1)) * (UNIT_SECONDS[interval.slice(-1)] ?? Number.NaN);
}
