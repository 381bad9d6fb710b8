/**
 * The query engine, seen from the server's thread: a worker thread (engine-worker.ts) started on
 * the first query, stopped after IDLE_MS without one (its memory goes with it). Queries and loads
 * run one at a time, each in its turn, owners taking turns: a query's time bound runs from its
 * start, not while it waits. A query the engine has not started within its turn's wait
 * (`turnWaitMs`) is answered busy. A started query that has not answered GRACE_MS past its time
 * bound, or a load past LOAD_MS, ends the thread: WebAssembly stops when its thread is terminated,
 * whatever SQLite was doing. It fails; what waited goes to a new thread (its tables are loaded
 * again as its queries name them). Messages waiting at once are bounded (MAX_WAITING), and one
 * owner's among them (OWNER_WAITING).
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
/** Of them, one owner's: the rest are left for the others, whose queries take turns with theirs. */
export const OWNER_WAITING = 12;
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
  message: ToEngine;
};

/** A query waits for its turn at most as long as this many queries at their time bound take. */
export const TURN_WAITS = 6;

export class QueryEngine {
  private worker: Worker | undefined;
  private started: Promise<Worker> | undefined;
  /** Every message not yet answered: queued, or the one the thread has. */
  private readonly waiting = new Map<number, Waiting>();
  /** Messages not yet given to the thread, by owner, in the order their owners take turns. */
  private readonly queued = new Map<string, Waiting[]>();
  /** The message the thread has. */
  private running: number | undefined;
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
    const mine = this.queued.get(message.owner) ?? [];
    const runningMine = this.waiting.get(this.running ?? 0)?.message.owner === message.owner;
    if (mine.length + (runningMine ? 1 : 0) >= OWNER_WAITING) {
      throw new EngineUnavailable(
        `${OWNER_WAITING} of your queries are waiting already; retry when one is answered`,
        'busy',
      );
    }
    const seq = ++this.seq;
    clearTimeout(this.idle);
    const sent = { ...message, seq, startBy: clockMs() + this.turnWaitMs } as ToEngine;
    const answer = new Promise<FromEngine>((resolve, reject) => {
      const timer = setTimeout(() => this.answerBusy(seq), this.turnWaitMs);
      const waiting = { resolve, reject, timer, runMs, answered: false, message: sent };
      this.waiting.set(seq, waiting);
      this.queued.set(message.owner, [...mine, waiting]);
    });
    this.next();
    return await answer;
  }

  /**
   * Gives the thread its next message when it has none: the first queued of the owner whose turn
   * it is, that owner then going last. So each owner's queries wait behind at most one of each
   * other owner's, whatever one caller asks at once. Starts the thread first when there is none.
   */
  private next(): void {
    if (this.running !== undefined || this.queued.size === 0) return;
    if (this.worker === undefined) {
      this.start().then(
        () => this.next(),
        (error: unknown) => this.fail(new EngineUnavailable(String(error), 'failed')),
      );
      return;
    }
    const [owner, mine] = this.queued.entries().next().value as [string, Waiting[]];
    this.queued.delete(owner);
    const first = mine[0] as Waiting;
    if (mine.length > 1) this.queued.set(owner, mine.slice(1));
    this.running = first.message.seq;
    this.worker.postMessage(first.message);
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
    // Still queued: it never reaches the thread.
    if (this.running !== seq) this.dequeue(waiting);
  }

  private dequeue(waiting: Waiting): void {
    const { owner, seq } = waiting.message;
    const rest = (this.queued.get(owner) ?? []).filter((w) => w !== waiting);
    if (rest.length > 0) this.queued.set(owner, rest);
    else this.queued.delete(owner);
    this.waiting.delete(seq);
    this.idleIfDone();
  }

  /** The engine began `seq`: from now it has its time, then the thread is ended. */
  private begun(seq: number): void {
    const waiting = this.waiting.get(seq);
    if (waiting === undefined) return;
    clearTimeout(waiting.timer);
    waiting.timer = setTimeout(() => void this.endRunaway(seq), waiting.runMs);
  }

  /**
   * Ends the thread `seq` ran past its time on: it fails with its time bound, and what is queued
   * goes to a new thread in its turn (its tables are loaded again as its queries name them).
   */
  private async endRunaway(seq: number): Promise<void> {
    const runaway = this.waiting.get(seq);
    if (runaway === undefined || this.running !== seq) return;
    this.waiting.delete(seq);
    this.running = undefined;
    if (!runaway.answered) runaway.reject(new EngineUnavailable('stopped past its time', 'timeout'));
    const worker = this.worker;
    this.worker = undefined;
    this.started = undefined;
    await worker?.terminate();
    this.next();
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
    if (this.running === reply.seq) this.running = undefined;
    if (waiting !== undefined) {
      clearTimeout(waiting.timer);
      this.waiting.delete(reply.seq);
      if (!waiting.answered) waiting.resolve(reply);
    }
    this.idleIfDone();
    this.next();
  }

  /** With nothing waiting, the thread is stopped after IDLE_MS. */
  private idleIfDone(): void {
    if (this.waiting.size > 0) return;
    clearTimeout(this.idle);
    this.idle = setTimeout(() => void this.stop(), IDLE_MS);
    this.idle.unref();
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
    this.queued.clear();
    this.running = undefined;
    this.worker = undefined;
    this.started = undefined;
    for (const waiting of pending) {
      clearTimeout(waiting.timer);
      if (!waiting.answered) waiting.reject(why);
    }
  }
}
