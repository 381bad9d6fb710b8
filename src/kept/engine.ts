/**
 * The query engine, seen from the server's thread: a worker thread (engine-worker.ts) started on
 * the first query, stopped after IDLE_MS without one (its memory goes with it). Queries and loads
 * run one at a time, each in its turn: a query's time bound runs from its start, not while it waits
 * behind others. A query the engine has not started within its turn's wait (`turnWaitMs`) is
 * answered busy (the engine skips it when it gets to it). A started query that has not answered
 * GRACE_MS past its time bound, or a load past LOAD_MS, ends the thread: WebAssembly stops when its
 * thread is terminated, whatever SQLite was doing. It fails; what waited behind it is sent to a new
 * thread (its tables are loaded again as its queries name them). Messages waiting at once are
 * bounded (MAX_WAITING).
 */
import { Worker } from 'node:worker_threads';
import { packageFile } from '../package-files.js';
import {
  clockMs,
  type EngineLimits,
  type FromEngine,
  type QueryReply,
  type ToEngine,
} from './engine-protocol.js';

/** How long past a query's deadline the thread is given before it is ended. */
const GRACE_MS = 1_000;
/** How long a table's rows may take to load. */
const LOAD_MS = 30_000;
/** An engine with nothing to do for this long is stopped. */
const IDLE_MS = 5 * 60_000;
/** Queries and loads waiting on the engine at once. */
export const MAX_WAITING = 16;
/** The JavaScript heap of the engine's thread: what holds a table's rows while they load. */
const WORKER_HEAP_MB = 384;

/** Rows one query gives at most: a query is for the figures wanted, not for reading everything. */
const MAX_ROWS = 100_000;
/**
 * What one query's rows may take (each value 16 bytes, a text its characters more): what is sent to
 * the server's thread, held there and kept for its pages is bounded, whatever the SQL builds.
 */
const MAX_ROWS_BYTES = 16 * 1024 * 1024;
/** The longest text or blob one value may be. */
const MAX_VALUE_BYTES = 16 * 1024 * 1024;
/** What a loaded table takes of SQLite's memory, a cell (row × column) on average, for the bound on tables held. */
const CELL_BYTES = 32;

/**
 * The engine's bounds for `memoryMb` of SQLite's memory: half of it for the tables it holds (the
 * least recently used dropped first), the rest for what a query needs.
 */
export function engineLimits(memoryMb: number): EngineLimits {
  const heapBytes = memoryMb * 1024 * 1024;
  return {
    heapBytes,
    heldCells: Math.floor(heapBytes / 2 / CELL_BYTES),
    maxRows: MAX_ROWS,
    maxRowsBytes: MAX_ROWS_BYTES,
    maxValueBytes: MAX_VALUE_BYTES,
  };
}

/** Why the engine could not answer: it stopped, or was busy. */
export class EngineUnavailable extends Error {
  constructor(
    message: string,
    readonly code: 'timeout' | 'busy' | 'failed',
  ) {
    super(message);
  }
}

type Waiting = {
  resolve(reply: FromEngine): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
  /** How long it may run once started, before the thread is ended. */
  runMs: number;
  /** Its caller was answered (busy) before the engine's reply, which is then dropped. */
  answered: boolean;
  /** What was sent: sent again to a new thread when the one it waited on was ended for another. */
  message: ToEngine;
};

/** A query waits for its turn at most as long as this many queries at their time bound take. */
export const TURN_WAITS = 6;

export class QueryEngine {
  private worker: Worker | undefined;
  private started: Promise<Worker> | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private seq = 0;
  private idle: NodeJS.Timeout | undefined;

  constructor(
    private readonly limits: EngineLimits,
    private readonly turnWaitMs: number,
  ) {}

  /** A query's reply (rows, tables it needs loaded, or SQLite's error) within its time bound. */
  query(message: Omit<Extract<ToEngine, { kind: 'query' }>, 'seq' | 'startBy'>): Promise<QueryReply> {
    return this.send(message, message.timeoutMs + GRACE_MS) as Promise<QueryReply>;
  }

  /** A table's rows loaded into its owner's database. */
  async load(message: Omit<Extract<ToEngine, { kind: 'load' }>, 'seq' | 'startBy'>): Promise<void> {
    const reply = await this.send(message, LOAD_MS);
    if (reply.kind === 'error') throw new EngineUnavailable(reply.message, 'failed');
  }

  async close(): Promise<void> {
    clearTimeout(this.idle);
    await this.stop(new EngineUnavailable('the server is stopping', 'failed'));
  }

  private async send(message: Omit<ToEngine, 'seq' | 'startBy'>, runMs: number): Promise<FromEngine> {
    if (this.waiting.size >= MAX_WAITING) {
      throw new EngineUnavailable(`${MAX_WAITING} queries are waiting already; retry in a moment`, 'busy');
    }
    const worker = await this.start();
    const seq = ++this.seq;
    clearTimeout(this.idle);
    const startBy = clockMs() + this.turnWaitMs;
    return new Promise<FromEngine>((resolve, reject) => {
      const timer = setTimeout(() => this.answerBusy(seq), this.turnWaitMs);
      const sent = { ...message, seq, startBy } as ToEngine;
      this.waiting.set(seq, { resolve, reject, timer, runMs, answered: false, message: sent });
      worker.postMessage(sent);
    });
  }

  /** A message not started within its turn's wait: its caller is told the engine is busy. */
  private answerBusy(seq: number): void {
    const waiting = this.waiting.get(seq);
    if (waiting === undefined || waiting.answered) return;
    waiting.answered = true;
    const seconds = Math.round(this.turnWaitMs / 100) / 10;
    waiting.reject(
      new EngineUnavailable(
        `other queries held it for the ${seconds} s a query waits; retry in a moment`,
        'busy',
      ),
    );
  }

  /** The engine began `seq`: from now it has its time, then the thread is ended. */
  private begun(seq: number): void {
    const waiting = this.waiting.get(seq);
    if (waiting === undefined) return;
    clearTimeout(waiting.timer);
    waiting.timer = setTimeout(() => void this.endRunaway(seq), waiting.runMs);
  }

  /**
   * Ends the thread `seq` ran past its time on: it fails with its time bound, and what waited behind
   * it goes to a new thread, each in its turn and within its own wait, as it was sent.
   */
  private async endRunaway(seq: number): Promise<void> {
    const behind = [...this.waiting.values()].filter((w) => w.message.seq !== seq);
    for (const waiting of behind) this.waiting.delete(waiting.message.seq);
    await this.stop(new EngineUnavailable('stopped past its time', 'timeout'));
    if (behind.length === 0) return;
    try {
      const worker = await this.start();
      for (const waiting of behind) {
        this.waiting.set(waiting.message.seq, waiting);
        worker.postMessage(waiting.message);
      }
    } catch (error) {
      const why = new EngineUnavailable(error instanceof Error ? error.message : String(error), 'failed');
      for (const waiting of behind) {
        clearTimeout(waiting.timer);
        if (!waiting.answered) waiting.reject(why);
      }
    }
  }

  private start(): Promise<Worker> {
    this.started ??= new Promise<Worker>((resolve, reject) => {
      const worker = new Worker(packageFile('dist/query-engine.js'), {
        workerData: this.limits,
        resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
      });
      worker.unref();
      worker.on('message', (reply: FromEngine) => {
        if (reply.kind === 'ready') {
          this.worker = worker;
          resolve(worker);
        } else if (reply.kind === 'started') this.begun(reply.seq);
        else if (reply.kind === 'late') {
          this.answerBusy(reply.seq);
          this.settle(reply);
        } else this.settle(reply);
      });
      worker.on('error', (error) => {
        reject(error);
        void this.stop(new EngineUnavailable(error.message, 'failed'));
      });
      worker.on('exit', () => {
        if (this.worker === worker) this.fail(new EngineUnavailable('its thread stopped', 'failed'));
      });
    });
    return this.started;
  }

  private settle(reply: FromEngine): void {
    const waiting = this.waiting.get(reply.seq);
    if (!waiting) return;
    clearTimeout(waiting.timer);
    this.waiting.delete(reply.seq);
    if (!waiting.answered) waiting.resolve(reply);
    if (this.waiting.size === 0) {
      this.idle = setTimeout(() => void this.stop(), IDLE_MS);
      this.idle.unref();
    }
  }

  /** Ends the thread; what waited on it fails with `why`. */
  private async stop(why = new EngineUnavailable('its thread stopped', 'failed')): Promise<void> {
    const worker = this.worker;
    this.fail(why);
    await worker?.terminate();
  }

  /** Forgets the thread; what waited on it fails with `why`. */
  private fail(why: EngineUnavailable): void {
    const pending = [...this.waiting.values()];
    this.waiting.clear();
    this.worker = undefined;
    this.started = undefined;
    for (const waiting of pending) {
      clearTimeout(waiting.timer);
      if (!waiting.answered) waiting.reject(why);
    }
  }
}
