/**
 * Requests under way, so that a server can finish them before it exits: a stdio host that closes
 * stdin right after its last request still gets every answer, and an HTTP server told to stop
 * answers the calls it has accepted.
 */

/** How long requests in flight may take to finish once the server has been told to stop. */
export const DRAIN_TIMEOUT_MS = 30_000;

/** A set of requests under way, and a wait for it to empty. */
export class InFlight<T> {
  private readonly pending = new Set<T>();
  private readonly waiters = new Set<() => void>();

  get size(): number {
    return this.pending.size;
  }

  add(request: T): void {
    this.pending.add(request);
  }

  /** The request is answered (or gone). */
  delete(request: T): void {
    if (this.pending.delete(request) && this.pending.size === 0) {
      for (const wake of this.waiters) wake();
    }
  }

  /** Resolves once every request added so far is answered, or after `timeoutMs`. */
  drained(timeoutMs: number): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiters.add(done);
    });
  }
}
