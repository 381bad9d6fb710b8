/**
 * The services every tool call uses, built once per process and shared by every transport and
 * every HTTP request: the data source (and its client), the shared answers (cache and in-flight
 * joins), the credit guard, and the clock.
 */
import { SharedAnswers } from '../cache/answers.js';
import { MemoryCacheStore } from '../cache/store.js';
import type { Config } from '../config.js';
import { FileLedger } from '../guard/file-ledger.js';
import { CreditGuard } from '../guard/guard.js';
import { type DataSource, openDataSource } from '../upstream/source.js';
import type { CallObserver } from './events.js';
import { CallLimiter } from './limiter.js';

export interface Services {
  config: Config;
  /** The data source, opened on first use (the embedded sandbox takes a moment to start). */
  source(): Promise<DataSource>;
  answers: SharedAnswers;
  guard: CreditGuard;
  /** Bounds the calls that make requests at once. */
  limiter: CallLimiter;
  /** Told of every call and upstream request (metrics, logs). */
  observers: CallObserver[];
  /** Milliseconds since the epoch: real time, or SVC_NOW's frozen instant. */
  now(): number;
  close(): Promise<void>;
}

export function createServices(config: Config): Services {
  const frozen = config.now?.getTime();
  const now = frozen === undefined ? Date.now : () => frozen;
  let opening: Promise<DataSource> | undefined;
  const cacheStore = new MemoryCacheStore();
  const guard = new CreditGuard({
    store: new FileLedger(config.stateDir, now),
    budget: config.creditBudget,
    window: config.creditWindow,
    maxPerCall: config.maxCreditsPerCall,
    now,
  });
  return {
    config,
    source() {
      opening ??= openDataSource(config);
      return opening;
    },
    answers: new SharedAnswers(cacheStore, config.cache),
    guard,
    limiter: new CallLimiter(),
    observers: [],
    now,
    async close() {
      await guard.close().catch(() => {});
      await cacheStore.close();
      if (opening) await (await opening.catch(() => undefined))?.close().catch(() => {});
    },
  };
}
