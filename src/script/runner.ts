/**
 * Scripts, seen from the server's thread: each runs on a runner thread (worker.ts) of its own for
 * as long as it runs, so that a script that never yields holds no other call up. The server keeps
 * what the guest cannot be trusted to: a bound on the calls a script makes and on those in flight at
 * once, a host timer that ends the script's calls at its deadline and terminates the thread soon
 * after (a builtin that never checks the interrupt cannot outlast it), and the end of the script
 * only once every call it started has ended, so that its answer says all it was charged.
 */
import { Worker } from 'node:worker_threads';
import { packageFile } from '../package-files.js';
import type { FromRunner, GuestLimits, HostRequest, ScriptEnd, ToRunner } from './protocol.js';

/** What a script may ask of the host, each answered with plain data or an Error's message. */
export interface ScriptHost {
  tool(name: string, args: unknown): Promise<unknown>;
  query(sql: string): Promise<unknown>;
  /** The script was stopped at its deadline: the calls it started are to end now. */
  stop(): void;
}

export interface RunnerLimits {
  timeoutMs: number;
  memoryBytes: number;
  stackBytes: number;
  logChars: number;
  /** Tool calls and queries one script may make. */
  maxCalls: number;
  /** Of them, in flight at once: the others wait their turn. */
  maxInFlight: number;
  /** The most JSON characters one answer hands the script. */
  maxAnswerChars: number;
  /** Scripts running at once in the process; another is refused until one ends. */
  maxScripts: number;
  /** Of them, one owner's: the others are left for other callers. */
  ownerScripts: number;
}

export interface ScriptOutcome {
  end: ScriptEnd;
  logs: string[];
  logsDropped: number;
  /** Tool calls and queries the script made (refused ones included). */
  calls: number;
}

/** Refused before it ran: the process runs as many scripts as it may. */
export class RunnerBusy extends Error {}

/** How long past its deadline a script's thread is given before it is terminated. */
const GRACE_MS = 1_000;
/** A runner thread is replaced after this many scripts, so that the heap QuickJS grew goes back. */
const SCRIPTS_A_THREAD = 50;
/**
 * A runner thread's stack: room for QuickJS's own bound on the script's stack (stackBytes) to be
 * met before V8's, so that a value or recursion nested too deeply fails as the script's error.
 */
const THREAD_STACK_MB = 16;

interface Thread {
  worker: Worker;
  scripts: number;
  /** False once the thread has exited: an idle thread that exited is not given a script. */
  alive: boolean;
}

export class ScriptRunner {
  private idle: Thread | undefined;
  private running = 0;
  /** Scripts running, by owner. */
  private readonly owners = new Map<string, number>();

  constructor(private readonly limits: RunnerLimits) {}

  /** `owner`'s script on a runner thread, unless as many as the bounds allow are running. */
  async run(
    code: string,
    host: ScriptHost,
    { owner, signal }: { owner: string; signal?: AbortSignal },
  ): Promise<ScriptOutcome> {
    const { maxScripts, ownerScripts } = this.limits;
    const mine = this.owners.get(owner) ?? 0;
    if (mine >= ownerScripts) {
      throw new RunnerBusy(
        `${ownerScripts} of your scripts are running already; try again when one has ended.`,
      );
    }
    if (this.running >= maxScripts) {
      throw new RunnerBusy(`${maxScripts} scripts are running already; try again when one has ended.`);
    }
    this.running++;
    this.owners.set(owner, mine + 1);
    try {
      const thread = this.idle?.alive ? this.idle : await startThread();
      this.idle = undefined;
      thread.scripts++;
      const { outcome, reusable } = await runOn(thread.worker, code, host, this.limits, signal);
      // A thread whose script ran out of memory, time or stack is not trusted with another.
      const clean = outcome.end.ok || ['error', 'syntax', 'unsettled'].includes(outcome.end.failure);
      if (reusable && clean && thread.scripts < SCRIPTS_A_THREAD && !this.idle) this.idle = thread;
      else await thread.worker.terminate();
      return outcome;
    } finally {
      this.running--;
      const left = (this.owners.get(owner) ?? 1) - 1;
      if (left > 0) this.owners.set(owner, left);
      else this.owners.delete(owner);
    }
  }

  async close(): Promise<void> {
    const idle = this.idle;
    this.idle = undefined;
    await idle?.worker.terminate();
  }
}

function startThread(): Promise<Thread> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(packageFile('dist/script-runner.js'), {
      resourceLimits: { stackSizeMb: THREAD_STACK_MB },
    });
    worker.unref();
    const ready = (message: FromRunner) => {
      if (message.kind !== 'ready') return;
      worker.off('message', ready);
      worker.off('error', reject);
      // An error the thread did not catch ends it ('exit' follows): never the process. A script
      // running on it reads the error for its outcome (runOn).
      worker.on('error', () => {});
      const thread = { worker, scripts: 0, alive: true };
      worker.once('exit', () => {
        thread.alive = false;
      });
      resolve(thread);
    };
    worker.on('message', ready);
    worker.once('error', reject);
  });
}

/**
 * One script on `worker`: its requests answered by `host` within the bounds, its end awaited, or
 * the thread terminated past the deadline or on a cancel. Reusable when the thread ended cleanly.
 */
function runOn(
  worker: Worker,
  code: string,
  host: ScriptHost,
  limits: RunnerLimits,
  signal?: AbortSignal,
): Promise<{ outcome: ScriptOutcome; reusable: boolean }> {
  const deadline = Date.now() + limits.timeoutMs;
  const guest: GuestLimits = {
    memoryBytes: limits.memoryBytes,
    stackBytes: limits.stackBytes,
    deadline,
    logChars: limits.logChars,
  };
  const calls = new HostCalls(host, limits, (message) => worker.postMessage(message));
  return new Promise((resolve, reject) => {
    let ended: Omit<ScriptOutcome, 'calls'> | undefined;
    const finish = (reusable: boolean) => {
      clearTimeout(due);
      clearTimeout(timer);
      signal?.removeEventListener('abort', cancel);
      worker.off('message', listen);
      worker.off('exit', exited);
      worker.off('error', failed);
      // Every call the script started ends first: the answer then says all it was charged.
      void calls.settled().then(() => {
        const outcome = { ...(ended ?? stopped('the script runner stopped')), calls: calls.made };
        resolve({ outcome, reusable: reusable && calls.count === calls.answered });
      });
    };
    const listen = (message: FromRunner) => {
      if (message.kind === 'request') calls.take(message.id, message.request);
      else if (message.kind === 'done') {
        const { kind: _, logs, logsDropped, threadEnds, ...end } = message;
        ended = { end: end as ScriptEnd, logs, logsDropped };
        finish(threadEnds !== true);
      }
    };
    const exited = () => finish(false);
    const failed = (error: Error) => {
      ended ??= stopped(`The script's runner thread failed (${error.name}: ${error.message}).`);
    };
    // At the deadline its calls end, in flight or waiting for a turn: the script has no time left
    // to use their answers. Its thread is given GRACE_MS more to end by its own interrupt.
    const due = setTimeout(() => {
      calls.stop();
      host.stop();
    }, limits.timeoutMs);
    const timer = setTimeout(() => {
      ended = stopped(
        'The script was stopped at its deadline (SVC_SCRIPT_TIMEOUT_MS): it ran too long, or never ended.',
        'timeout',
      );
      void worker.terminate();
    }, limits.timeoutMs + GRACE_MS);
    const cancel = () => {
      calls.stop();
      void worker.terminate();
      reject(signal?.reason ?? new Error('cancelled'));
    };
    if (signal?.aborted) return cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    worker.on('message', listen);
    worker.once('exit', exited);
    worker.once('error', failed);
    worker.postMessage({ kind: 'run', code, limits: guest } satisfies ToRunner);
  });
}

function stopped(message: string, failure: 'timeout' | 'error' = 'error'): Omit<ScriptOutcome, 'calls'> {
  return { end: { ok: false, failure, message }, logs: [], logsDropped: 0 };
}

/** A script's requests: counted, at most `maxInFlight` at once, each answered once. */
class HostCalls {
  count = 0;
  answered = 0;
  /** The calls made: those past the bound on calls are refused before they are. */
  get made(): number {
    return Math.min(this.count, this.limits.maxCalls);
  }
  private inFlight = 0;
  private readonly queue: (() => void)[] = [];
  private readonly running = new Set<Promise<void>>();
  private stopping = false;

  constructor(
    private readonly host: ScriptHost,
    private readonly limits: RunnerLimits,
    private readonly send: (message: ToRunner) => void,
  ) {}

  take(id: number, request: HostRequest): void {
    this.count++;
    if (this.count > this.limits.maxCalls) {
      this.answer(id, `Refused: a script makes at most ${this.limits.maxCalls} tool calls and queries.`);
      return;
    }
    this.queue.push(() => this.perform(id, request));
    this.next();
  }

  /** No more answers: what waits is dropped; what runs ends on its own. */
  stop(): void {
    this.stopping = true;
    this.queue.length = 0;
  }

  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  private next(): void {
    while (this.inFlight < this.limits.maxInFlight && this.queue.length > 0) this.queue.shift()?.();
  }

  private perform(id: number, request: HostRequest): void {
    this.inFlight++;
    const work = (async () => {
      try {
        const data =
          request.what === 'tool'
            ? await this.host.tool(request.name, parseArgs(request.args))
            : await this.host.query(request.sql);
        const json = JSON.stringify(data ?? null);
        if (json.length > this.limits.maxAnswerChars) {
          this.answer(
            id,
            `This answer is ${json.length.toLocaleString('en-US')} characters of JSON, over a script's ${this.limits.maxAnswerChars.toLocaleString('en-US')}: ask for fewer rows or a shorter range.`,
          );
        } else this.answer(id, undefined, json);
      } catch (error) {
        this.answer(id, (error as Error)?.message ?? String(error));
      } finally {
        this.inFlight--;
        this.next();
      }
    })();
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }

  private answer(id: number, refusal: string | undefined, json?: string): void {
    this.answered++;
    if (this.stopping) return;
    this.send(
      refusal === undefined
        ? { kind: 'answer', id, ok: true, json: json ?? 'null' }
        : { kind: 'answer', id, ok: false, message: refusal },
    );
  }
}

function parseArgs(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
