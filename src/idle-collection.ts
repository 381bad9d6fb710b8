/**
 * Full garbage collections once heavy work has stopped. V8 collects as a process allocates, so a
 * server left idle after a burst of large answers keeps the heap the burst left (hundreds of MB)
 * until its next call: Node runs no collection while idle. After at least HEAVY_BYTES of heavy
 * pieces (cpu-turns.ts), the first QUIET_MS without one runs a collection, and the next QUIET_MS
 * another; then none until enough heavy work again. The timer does not keep the process alive.
 * Why, with figures: docs/decisions/020-collections-when-heavy-work-stops.md.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How long without a heavy piece counts as stopped. */
const QUIET_MS = 2_000;
/** How much heavy work (the bytes of the answers handled) is worth a collection: two large answers. */
const HEAVY_BYTES = 24 * 1024 * 1024;
/**
 * Collections in a quiet spell, QUIET_MS apart: on Nodes 22 and 24 the second gave 35 to 60 MB more
 * back to the system in the burst bench.
 */
const COLLECTIONS = 2;

export class IdleCollection {
  private handled = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly collect: () => void,
    private readonly options = { quietMs: QUIET_MS, heavyBytes: HEAVY_BYTES },
  ) {}

  /** A heavy piece of `bytes` has just run: a collection waiting for quiet waits again. */
  readonly heavy = (bytes: number): void => {
    this.handled += bytes;
    if (this.timer !== undefined || this.handled >= this.options.heavyBytes) this.wait(COLLECTIONS);
  };

  private wait(left: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.handled = 0;
      this.collect();
      if (left > 1) this.wait(left - 1);
    }, this.options.quietMs);
    this.timer.unref();
  }
}

/**
 * V8's full collection as a function: what `--expose-gc` gives a context made while it is set. It
 * is set only for that context's making: neither the process's global nor a later `vm` context
 * gets a `gc`.
 */
export function fullCollection(): () => void {
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as () => void;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}
