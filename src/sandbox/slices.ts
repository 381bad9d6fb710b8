/**
 * Long answers built a slice at a time. The embedded sandbox runs on the server's thread (decision
 * 003), and an answer built in one go held that thread for as long as it took: 1.7 s for 10,000
 * points of global metrics from a cold start, 2 s for ten assets' hourly candles, with no `ping`
 * or other call read meanwhile. An answer built here yields the thread after SLICE_MS of work.
 * Answers are still built one at a time, so no more of them are in memory at once than before.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** The most time one slice of an answer holds the thread (one item may take longer: an asset's 10,000 candles). */
export const SLICE_MS = 20;

let last: Promise<unknown> = Promise.resolve();

/**
 * `finish` of `items` mapped by `map`, the mapping done in slices of SLICE_MS, after any other
 * answer being built (and its `finish`) is done.
 */
export function inSlices<T, R, A>(
  items: readonly T[],
  map: (item: T) => R,
  finish: (mapped: R[]) => A,
): Promise<A> {
  const turn = last.then(async () => {
    const mapped: R[] = [];
    let sliceStarted = performance.now();
    for (const item of items) {
      if (performance.now() - sliceStarted >= SLICE_MS) {
        await nextTurn();
        sliceStarted = performance.now();
      }
      mapped.push(map(item));
    }
    return finish(mapped);
  });
  // The queue holds only when the answer ended, not the answer itself.
  last = turn.then(
    () => undefined,
    () => undefined,
  );
  return turn;
}
