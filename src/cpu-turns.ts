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
  /** Work waiting for its turn, the next first. */
  private readonly waiting: (() => void)[] = [];
  private turning = false;

  /**
   * `work`'s result: at once when `bytes` (what it handles) is light, else alone in its turn. Work
   * that goes on with what the caller's last turn produced (normalising the answer just parsed)
   * asks for the `next` turn: what it holds is not kept waiting behind answers read since.
   */
  run<T>(bytes: number, work: () => T, place: 'last' | 'next' = 'last'): Promise<T> {
    if (bytes < LIGHT_BYTES) {
      try {
        return Promise.resolve(work());
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return new Promise<T>((resolve, reject) => {
      const turn = () => {
        try {
          resolve(work());
        } catch (error) {
          reject(error);
        }
      };
      if (place === 'next') this.waiting.unshift(turn);
      else this.waiting.push(turn);
      if (!this.turning) this.turnNext();
    });
  }

  /** One piece of work in a macrotask of its own, then the next, until none waits. */
  private turnNext(): void {
    this.turning = true;
    setImmediate(() => {
      this.waiting.shift()?.();
      if (this.waiting.length > 0) this.turnNext();
      else this.turning = false;
    });
  }
}

/** The process's one queue: there is one event loop to keep free. */
export const cpuTurns = new CpuTurns();
