/**
 * Answers shared between calls: a fresh cached answer, or a join onto an identical call already in
 * flight, so that 100 identical concurrent calls make one upstream request. The shared request
 * runs until every caller waiting on it has cancelled; one caller cancelling leaves it running for
 * the others. A failed request is never cached.
 */
import type { CachedAnswer, CacheStore } from './store.js';

export interface Fetched extends CachedAnswer {
  /** `upstream`: this call made the request; `cache`: a stored answer; `joined`: another call's request. */
  via: 'upstream' | 'cache' | 'joined';
}

interface Flight {
  promise: Promise<CachedAnswer>;
  controller: AbortController;
  waiting: number;
}

export class SharedAnswers {
  private readonly flights = new Map<string, Flight>();

  constructor(
    private readonly store: CacheStore,
    /** SVC_CACHE: off means every call makes its own request. */
    private readonly enabled: boolean,
  ) {}

  /**
   * The answer for `key`: from the store while it is fresh, else from an identical call in flight,
   * else from `produce` (which receives the shared request's signal). `ttlMs` 0: live data, never shared.
   */
  async fetch(
    key: string,
    ttlMs: number,
    signal: AbortSignal | undefined,
    produce: (signal: AbortSignal) => Promise<CachedAnswer>,
  ): Promise<Fetched> {
    if (!this.enabled || ttlMs <= 0) {
      return { ...(await produce(signal ?? new AbortController().signal)), via: 'upstream' };
    }
    const stored = await this.store.get(key).catch(() => undefined);
    if (stored) return { ...stored, via: 'cache' };
    let flight = this.flights.get(key);
    const joined = flight !== undefined;
    if (!flight) {
      const controller = new AbortController();
      const promise = produce(controller.signal).then(async (answer) => {
        await this.store.set(key, answer, ttlMs).catch(() => {});
        return answer;
      });
      flight = { promise, controller, waiting: 0 };
      const started = flight;
      this.flights.set(key, started);
      promise.then(
        () => this.flights.delete(key),
        () => this.flights.delete(key),
      );
    }
    const answer = await wait(flight, signal);
    return { ...answer, via: joined ? 'joined' : 'upstream' };
  }
}

/** The flight's answer, or a rejection as soon as this caller cancels (the last one out aborts the request). */
function wait(flight: Flight, signal: AbortSignal | undefined): Promise<CachedAnswer> {
  flight.waiting++;
  if (!signal) return flight.promise;
  return new Promise((resolve, reject) => {
    const leave = () => {
      flight.waiting--;
      if (flight.waiting === 0) flight.controller.abort(signal.reason);
      reject(signal.reason ?? new Error('cancelled'));
    };
    if (signal.aborted) return leave();
    signal.addEventListener('abort', leave, { once: true });
    flight.promise.then(
      (answer) => {
        signal.removeEventListener('abort', leave);
        resolve(answer);
      },
      (error) => {
        signal.removeEventListener('abort', leave);
        reject(error);
      },
    );
  });
}
