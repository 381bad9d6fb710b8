// @ts-check
/**
 * Preloaded with `node --import` (NODE_OPTIONS): writes each garbage collection the process runs to
 * the file named by GC_LOG, one per line: its kind (`major` or `minor`, as V8 reports them), then
 * `forced` when the process asked for it (the server's own collections, src/idle-collection.ts).
 */
import { appendFileSync } from 'node:fs';
import { constants, PerformanceObserver } from 'node:perf_hooks';

const file = process.env.GC_LOG;
const KINDS = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
};
if (file) {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const gc = /** @type {{ detail: { kind: number, flags: number } }} */ (/** @type {unknown} */ (entry));
      const { kind, flags } = gc.detail;
      const forced = (flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) !== 0;
      if (KINDS[kind]) appendFileSync(file, `${KINDS[kind]}${forced ? ' forced' : ''}\n`);
    }
  }).observe({ entryTypes: ['gc'] });
}
