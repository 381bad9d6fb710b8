/**
 * A bound on the calls that reach the service at once: the rest wait in a queue, each for a bounded
 * time, and past the queue's length a call is refused at once with a message saying so. Cache hits
 * and joined calls never wait here: only calls that make a request do.
 */
import { CALL_CANCELLED } from '../messages.js';

/**
 * Calls making requests at once: more than the service's per-minute limits ever need, and few
 * enough that a burst of heavy answers (each several MB while it is read) keeps memory bounded.
 */
export const MAX_IN_FLIGHT = 8;
/** Calls waiting for a turn; one more is refused at once. */
export const MAX_WAITING = 512;

export class BusyError extends Error {
  override name = 'BusyError';
}

interface Waiter {
  start(): void;
  timer: NodeJS.Timeout;
}

export class CallLimiter {
  private running = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    /** How long a call may wait for its turn before it is refused (time-bounds.ts). */
    private readonly maxWaitMs: number,
    private readonly maxInFlight = MAX_IN_FLIGHT,
    private readonly maxWaiting = MAX_WAITING,
  ) {}

  /** Run `work` in its turn; rejects with BusyError when the queue is full or the wait is too long. */
  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.running >= this.maxInFlight) await this.turn(signal);
    else this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      this.waiting.shift()?.start();
    }
  }

  private turn(signal?: AbortSignal): Promise<void> {
    if (this.waiting.length >= this.maxWaiting) {
      return Promise.reject(
        new BusyError(
          `The server is busy: ${this.running} calls are being answered and ${this.waiting.length} are waiting, the most it takes. Try again in a few seconds.`,
        ),
      );
    }
    return new Promise((resolve, reject) => {
      const leave = (error: Error) => {
        const index = this.waiting.indexOf(waiter);
        if (index >= 0) this.waiting.splice(index, 1);
        clearTimeout(waiter.timer);
        signal?.removeEventListener('abort', cancelled);
        reject(error);
      };
      const cancelled = () => leave(new Error(CALL_CANCELLED));
      const waiter: Waiter = {
        start: () => {
          clearTimeout(waiter.timer);
          signal?.removeEventListener('abort', cancelled);
          this.running++;
          resolve();
        },
        timer: setTimeout(
          () =>
            leave(
              new BusyError(
                `The server is busy: this call waited ${this.maxWaitMs / 1000} s for one of ${this.maxInFlight} slots without getting one. Try again in a few seconds.`,
              ),
            ),
          this.maxWaitMs,
        ),
      };
      signal?.addEventListener('abort', cancelled, { once: true });
      this.waiting.push(waiter);
    });
  }
}
