/** Time helpers shared by the model and the routes: the calendar's, and the sandbox's slots, gaps and history. */
import { monthsBefore } from '../../calendar.js';
import { unit } from './noise.js';

export {
  type CalendarUnit,
  calendarStart,
  calendarStep,
  DAY,
  floorTo,
  HOUR,
  iso,
  isoSeconds,
  MINUTE,
  monthsBefore,
  periodSteps,
} from '../../calendar.js';

/** Quotes are kept every 5 minutes: the grid of the historical endpoints. */
export const SLOT = 300;
/** How far back the sandbox has data, counted from the clock's now. */
const HISTORY_YEARS = 6;

const GAP_SEED = 0x5eed_6a9;

/**
 * About 1 in 100 five-minute slots has no quote (the same slots for every asset), so that the
 * historical rule "a period with no quote is skipped" has something to skip.
 */
export function isGapSlot(slotTime: number): boolean {
  return unit(GAP_SEED, slotTime / SLOT) < 0.01;
}

/** First instant with data: HISTORY_YEARS before now. */
export function historyStart(now: number): number {
  return monthsBefore(now, HISTORY_YEARS * 12);
}
