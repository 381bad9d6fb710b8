// @ts-check
/**
 * The mixed burst of test/reliability/burst.test.ts and tools/bench/burst.mjs: 500 calls in groups
 * of ten, each group a listing of up to 5,000 coins (answers near the 1 MiB bound), a global-metrics
 * history, a fear-and-greed history, an index history and six quotes. Each call has its own
 * arguments, so that no call joins another and every one does its work.
 */
export const MIXED_CALLS = 500;
/** The index history's spacings: with 17 counts, a pair of its own for each of the 50 groups. */
const INTERVALS = ['5m', '15m', 'daily'];

/**
 * The i-th call of the mixed burst: its tool and arguments.
 * @param {number} i
 * @returns {[string, Record<string, unknown>]}
 */
export function mixedCall(i) {
  const k = Math.floor(i / 10);
  switch (i % 10) {
    case 0:
      return ['get_cryptocurrency_listings_latest', { limit: 5000 - k }];
    case 1:
      return ['get_global_metrics_historical', { count: 1000 - k, interval: '5m' }];
    case 2:
      return ['get_fear_and_greed_historical', { limit: 500 - k }];
    case 3:
      return [
        'get_svc100_index_historical',
        { count: 20 - (k % 17), interval: INTERVALS[Math.floor(k / 17)] },
      ];
    default:
      return ['get_cryptocurrency_quotes_latest', { id: String(6 * k + (i % 10) - 3), skip_invalid: true }];
  }
}
