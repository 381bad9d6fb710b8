/**
 * Heavy synchronous work (parsing a multi-megabyte answer, normalising 10,000 records) one piece
 * at a time, each in a macrotask of its own. Answers that arrive together would otherwise be
 * processed back to back in one turn of the event loop, holding up everything else (a `ping`, the
 * next request's bytes) for seconds; between two pieces here the loop reads and writes as usual.
 *
 * Light work (an answer under LIGHT_BYTES, tens of microseconds to handle) runs at once: queueing
 * it for a turn of its own would cap the server at one answer per turn of the event loop, a few
 * hundred a second under load, and hold up nothing in exchange.
 */
export const LIGHT_BYTES = 64 * 1024;

export class CpuTurns {
  private last: Promise<unknown> = Promise.resolve();
  /** Told of each heavy piece once it has run, with the bytes it handled (idle-collection.ts). */
  afterHeavy: ((bytes: number) => void) | undefined;

  /** `work`'s result: at once when `bytes` (what it handles) is light, else alone in its turn. */
  run<T>(bytes: number, work: () => T): Promise<T> {
    if (bytes < LIGHT_BYTES) {
      try {
        return Promise.resolve(work());
      } catch (error) {
        return Promise.reject(error);
      }
    }
    const turn = this.last.then(
      () =>
        new Promise<T>((resolve, reject) => {
          setImmediate(() => {
            try {
              resolve(work());
            } catch (error) {
              reject(error);
            } finally {
              this.afterHeavy?.(bytes);
            }
          });
        }),
    );
    // The queue holds only when the turn ended, not its result: a heavy answer is not kept alive after its call.
    this.last = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  }
}

/** The process's one queue: there is one event loop to keep free. */
export const cpuTurns = new CpuTurns();
