/**
 * Heavy synchronous work (parsing a multi-megabyte answer, normalising 10,000 records) one piece
 * at a time, each in a macrotask of its own. Answers that arrive together would otherwise be
 * processed back to back in one turn of the event loop, holding up everything else (a `ping`, the
 * next request's bytes) for seconds; between two pieces here the loop reads and writes as usual.
 */
export class CpuTurns {
  private last: Promise<unknown> = Promise.resolve();

  /** `work`'s result, computed alone, once the work queued before it is done. */
  run<T>(work: () => T): Promise<T> {
    const turn = this.last.then(
      () =>
        new Promise<T>((resolve, reject) => {
          setImmediate(() => {
            try {
              resolve(work());
            } catch (error) {
              reject(error);
            }
          });
        }),
    );
    this.last = turn.catch(() => undefined);
    return turn;
  }
}

/** The process's one queue: there is one event loop to keep free. */
export const cpuTurns = new CpuTurns();
