/** Time helpers shared by the model and the routes: slots, gaps, calendar periods, ISO text. */
import { unit } from './noise.js';

export const MINUTE = 60;
export const HOUR = 3_600;
export const DAY = 86_400;
/** Quotes are kept every 5 minutes: the grid of the historical endpoints. */
export const SLOT = 300;
/** How far back the sandbox has data, counted from the clock's now. */
const HISTORY_YEARS = 6;

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

const GAP_SEED = 0x5eed_6a9;

/**
 * About 1 in 100 five-minute slots has no quote (the same slots for every asset), so that the
 * historical rule "a period with no quote is skipped" has something to skip.
 */
export function isGapSlot(slotTime: number): boolean {
  return unit(GAP_SEED, slotTime / SLOT) < 0.01;
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

/** First instant with data: HISTORY_YEARS before now. */
export function historyStart(now: number): number {
  return monthsBefore(now, HISTORY_YEARS * 12);
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
