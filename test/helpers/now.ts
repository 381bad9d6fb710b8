/**
 * The tests' one instant: the sandbox's frozen clock, the server's SVC_NOW beside it, and the time
 * upstream bodies written in tests are stamped with.
 */
export const NOW = '2026-11-22T12:00:00Z';
/** NOW in milliseconds since the epoch. */
export const NOW_MS = Date.parse(NOW);
/** NOW in Unix seconds, as the service's time parameters take it. */
export const NOW_S = NOW_MS / 1000;
