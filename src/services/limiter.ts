/**
 * A bound on the calls that reach the service at once, and on the answers they read at once by
 * their expected size: the rest wait in a queue, each for a bounded time, and past the
 * queue's length a call is refused at once with a message saying so. A call alone always runs,
 * whatever its size. Cache hits and joined calls never wait here: only calls that make a request do.
 */
import { CALL_CANCELLED } from '../messages.js';

/**
 * Calls making requests at once: more than the service's per-minute limits ever need, and few
 * enough that a burst of heavy answers (each several MB while it is read) keeps memory bounded.
 */
export const MAX_IN_FLIGHT = 8;
/** Calls waiting for a turn; one more is refused at once. */
export const MAX_WAITING = 512;
/**
 * The expected size of the answers being read at once (a 10,000-point history in four currencies
 * is about 15 MB): each is held several times over while it is parsed and normalised, so this
 * bounds the memory a burst of heavy calls takes, and the work queued on the server's thread.
 */
export const MAX_ANSWER_BYTES_IN_FLIGHT = 24 * 1024 * 1024;

export class BusyError extends Error {
  override name = 'BusyError';
}

interface Waiter {
  bytes: number;
  start(): void;
  timer: NodeJS.Timeout;
}

export class CallLimiter {
  private running = 0;
  /** The expected bytes of the answers the running calls read. */
  private bytes = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    /** How long a call may wait for its turn before it is refused (time-bounds.ts). */
    private readonly maxWaitMs: number,
    private readonly maxInFlight = MAX_IN_FLIGHT,
    private readonly maxWaiting = MAX_WAITING,
    private readonly maxBytes = MAX_ANSWER_BYTES_IN_FLIGHT,
  ) {}

  /**
   * Run `work` in its turn, `bytes` its answer's expected size; rejects with BusyError when the
   * queue is full or the wait is too long.
   */
  async run<T>(work: () => Promise<T>, signal?: AbortSignal, bytes = 0): Promise<T> {
    if (this.fits(bytes)) this.take(bytes);
    else await this.turn(signal, bytes);
    try {
      return await work();
    } finally {
      this.running--;
      this.bytes -= bytes;
      this.next();
    }
  }

  private fits(bytes: number): boolean {
    return this.running === 0 || (this.running < this.maxInFlight && this.bytes + bytes <= this.maxBytes);
  }

  private take(bytes: number): void {
    this.running++;
    this.bytes += bytes;
  }

  /**
   * The waiting calls that now fit start, in the order they came: one whose answer does not fit
   * beside those being read waits on, and those after it that fit go ahead of it.
   */
  private next(): void {
    for (let i = 0; i < this.waiting.length && this.running < this.maxInFlight; ) {
      const waiter = this.waiting[i] as Waiter;
      if (!this.fits(waiter.bytes)) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      waiter.start();
    }
  }

  private turn(signal: AbortSignal | undefined, bytes: number): Promise<void> {
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
        this.next();
        reject(error);
      };
      const cancelled = () => leave(new Error(CALL_CANCELLED));
      const waiter: Waiter = {
        bytes,
        start: () => {
          clearTimeout(waiter.timer);
          signal?.removeEventListener('abort', cancelled);
          this.take(bytes);
          resolve();
        },
        timer: setTimeout(
          () =>
            leave(
              new BusyError(
                `The server is busy: this call waited ${this.maxWaitMs / 1000} s for its turn among ${this.maxInFlight} calls at once without getting one. Try again in a few seconds.`,
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
