/** UTC calendar arithmetic and ISO text, in Unix seconds: the tools, the format helpers and the sandbox share it. */

export const MINUTE = 60;
export const HOUR = 3_600;
export const DAY = 86_400;
export function floorTo(t: number, step: number): number {
  return Math.floor(t / step) * step;
}

/** ISO 8601 with milliseconds, as the service writes most timestamps. */
export function iso(t: number): string {
  return new Date(t * 1000).toISOString();
}

/** ISO 8601 without milliseconds, as the index endpoints write them. */
export function isoSeconds(t: number): string {
  return `${new Date(t * 1000).toISOString().slice(0, 19)}Z`;
}

/** `months` calendar months before t (day of month clamped, as calendars do). */
export function monthsBefore(t: number, months: number): number {
  const d = new Date(t * 1000);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay));
  target.setUTCHours(d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds());
  return target.getTime() / 1000;
}

export type CalendarUnit = 'hourly' | 'daily' | 'weekly' | 'monthly' | 'yearly';

/** Start of the UTC calendar period containing t (weeks start on Monday, as ISO 8601 has it). */
export function calendarStart(t: number, unit: CalendarUnit): number {
  const d = new Date(t * 1000);
  switch (unit) {
    case 'hourly':
      return floorTo(t, HOUR);
    case 'daily':
      return floorTo(t, DAY);
    case 'weekly': {
      const day = floorTo(t, DAY);
      const weekday = (d.getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
      return day - weekday * DAY;
    }
    case 'monthly':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
    case 'yearly':
      return Date.UTC(d.getUTCFullYear(), 0, 1) / 1000;
  }
}

/** Calendar periods from the one containing `start` to the one containing `end`, both counted; 0 when `end` is before `start`. */
export function calendarPeriods(start: number, end: number, unit: CalendarUnit): number {
  if (end < start) return 0;
  if (unit === 'monthly' || unit === 'yearly') {
    const [from, to] = [new Date(start * 1000), new Date(end * 1000)];
    const years = to.getUTCFullYear() - from.getUTCFullYear();
    return unit === 'yearly' ? years + 1 : years * 12 + to.getUTCMonth() - from.getUTCMonth() + 1;
  }
  const length = unit === 'hourly' ? HOUR : unit === 'daily' ? DAY : 7 * DAY;
  return (calendarStart(end, unit) - calendarStart(start, unit)) / length + 1;
}

/** Start of the calendar period after the one starting at `start` (or before, with step -1). */
export function calendarStep(start: number, unit: CalendarUnit, step: 1 | -1): number {
  const d = new Date(start * 1000);
  switch (unit) {
    case 'hourly':
      return start + step * HOUR;
    case 'daily':
      return start + step * DAY;
    case 'weekly':
      return start + step * 7 * DAY;
    case 'monthly':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + step, 1) / 1000;
    case 'yearly':
      return Date.UTC(d.getUTCFullYear() + step, 0, 1) / 1000;
  }
}

/**
 * The starts of a series' periods: calendar periods, or fixed steps of `period` seconds from the
 * Unix epoch. `start(t)` is the period containing t; `next(s, k)` the one after (1) or before (-1).
 */
export function periodSteps(period: CalendarUnit | number) {
  if (typeof period === 'number')
    return { start: (t: number) => floorTo(t, period), next: (s: number, k: 1 | -1) => s + k * period };
  return {
    start: (t: number) => calendarStart(t, period),
    next: (s: number, k: 1 | -1) => calendarStep(s, period, k),
  };
}

/** Epoch numbers above this are milliseconds (1e11 seconds is the year 5138; 1e11 ms is 1973). */
const MILLISECONDS_FROM = 1e11;

/**
 * Epoch time (a number or a string of digits, in seconds or, as post times and some charts write
 * it, milliseconds) or ISO 8601 → ISO 8601. Anything else is returned as it is.
 */
export function isoOf(value: string | number): string {
  const text = String(value);
  if (!/^\d+$/.test(text)) return text;
  const n = Number(text);
  return new Date(n > MILLISECONDS_FROM ? n : n * 1000).toISOString();
}
