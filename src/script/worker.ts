/**
 * The script runner's thread: QuickJS compiled to WebAssembly (the synchronous build), one fresh
 * runtime and context for each script, within a heap bound, a stack bound and a deadline the
 * interrupt handler keeps. What the script asks of the host goes out as a request and comes back
 * as JSON text, resolving a guest promise; the guest's jobs are then run until it waits again, so
 * that calls awaited together (`Promise.all`) are in flight together. The server terminates this
 * thread when a script outlasts its deadline anyway (docs/decisions/017-scripts-in-quickjs.md).
 */
import { readFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import released from '@jitl/quickjs-wasmfile-release-sync';
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSDeferredPromise,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSSyncVariant,
} from 'quickjs-emscripten-core';
import { guestError } from './errors.js';
import { PRELUDE, SCRIPT_FILE, wrapped } from './guest.js';
import type { FromRunner, GuestLimits, HostRequest, ScriptEnd, ToRunner } from './protocol.js';

const port = parentPort;
if (!port) throw new Error('the script runner runs on a worker thread');
const post = (message: FromRunner) => port.postMessage(message);

// The package's types describe its CommonJS build, whose `default` its ES module gives directly.
const variant = ((released as { default?: QuickJSSyncVariant }).default ?? released) as QuickJSSyncVariant;
// The WebAssembly sits beside the bundle this thread is built into (scripts/build.mjs copies it).
const wasm = readFileSync(new URL('quickjs.wasm', import.meta.url));
const wasmBinary = wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength);
const quickjs = await newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmBinary }));

/** One script's runtime, from its code to its end. */
class Run {
  private readonly runtime: QuickJSRuntime;
  private readonly context: QuickJSContext;
  private readonly waiting = new Map<number, QuickJSDeferredPromise>();
  private readonly logs: string[] = [];
  private logChars = 0;
  private logsDropped = 0;
  private seq = 0;
  private ended = false;
  private promise: QuickJSHandle | undefined;
  /** The prelude's function that makes the return value JSON text (guest.ts). */
  private toJson: QuickJSHandle | undefined;

  constructor(
    private readonly code: string,
    private readonly limits: GuestLimits,
  ) {
    this.runtime = quickjs.newRuntime();
    this.runtime.setMemoryLimit(limits.memoryBytes);
    this.runtime.setMaxStackSize(limits.stackBytes);
    this.runtime.setInterruptHandler(() => Date.now() > limits.deadline);
    this.context = this.runtime.newContext();
    this.install();
  }

  start(): void {
    const prelude = this.context.evalCode(PRELUDE, 'prelude.js');
    if (prelude.error) {
      this.failWith(prelude.error);
      return;
    }
    this.toJson = prelude.value;
    const evaluated = this.context.evalCode(wrapped(this.code), SCRIPT_FILE);
    if (evaluated.error) {
      this.failWith(evaluated.error, 'parsing');
      return;
    }
    this.promise = evaluated.value;
    this.pump();
  }

  /** The host's answer to request `id`: the guest's promise of it settles, and the script goes on. */
  answer(message: Extract<ToRunner, { kind: 'answer' }>): void {
    const deferred = this.waiting.get(message.id);
    if (!deferred || this.ended) return;
    this.waiting.delete(message.id);
    try {
      const value = message.ok
        ? this.context.newString(message.json)
        : this.context.newError(message.message);
      if (message.ok) deferred.resolve(value);
      else deferred.reject(value);
      value.dispose();
    } catch {
      // The answer does not fit the script's heap.
      deferred.dispose();
      this.end(guestError({ name: 'InternalError', message: 'out of memory' }, this.code, this.limits));
      return;
    }
    deferred.dispose();
    this.pump();
  }

  private install(): void {
    const { context } = this;
    const ask = (request: HostRequest): QuickJSHandle => {
      const deferred = context.newPromise();
      const id = ++this.seq;
      this.waiting.set(id, deferred);
      post({ kind: 'request', id, request });
      return deferred.handle;
    };
    const functions: [string, (...args: QuickJSHandle[]) => QuickJSHandle | undefined][] = [
      [
        '__call',
        (name, args) => ask({ what: 'tool', name: stringOf(context, name), args: stringOf(context, args) }),
      ],
      ['__query', (sql) => ask({ what: 'query', sql: stringOf(context, sql) })],
      ['__log', (text) => void this.log(stringOf(context, text))],
    ];
    for (const [name, body] of functions) {
      const fn = context.newFunction(name, body);
      context.setProp(context.global, name, fn);
      fn.dispose();
    }
  }

  private log(line: string): void {
    if (this.logChars + line.length > this.limits.logChars) {
      this.logsDropped++;
      return;
    }
    this.logChars += line.length;
    this.logs.push(line);
  }

  /** Runs the guest's jobs until it waits on the host, then ends the script if it has settled. */
  private pump(): void {
    const jobs = this.runtime.executePendingJobs();
    if (jobs.error) {
      this.failWith(jobs.error);
      return;
    }
    const promise = this.promise;
    if (!promise || this.ended) return;
    const state = this.context.getPromiseState(promise);
    if (state.type === 'fulfilled') {
      this.returned(state.value);
      return;
    }
    if (state.type === 'rejected') {
      this.failWith(state.error);
      return;
    }
    if (this.waiting.size === 0) {
      this.end({
        ok: false,
        failure: 'unsettled',
        message:
          'The script waits on a promise that nothing can settle (no tool call or query is under way): it never ends.',
      });
    }
  }

  /**
   * QuickJS itself threw, which its own bounds should prevent: V8's stack ran out inside it (code
   * nested thousands deep, given to eval). Its runtime is left mid-way, so this thread ends once
   * the script's end is sent; the server starts a fresh one for the next script.
   */
  broke(error: unknown): void {
    const overflow = error instanceof RangeError;
    post({
      kind: 'done',
      logs: this.logs,
      logsDropped: this.logsDropped,
      threadEnds: true,
      ok: false,
      failure: overflow ? 'stack' : 'error',
      message: overflow
        ? 'The script nested code or a value too deeply for the runner (thousands of levels): nest less deeply.'
        : `The script's runtime failed (${String(error)}).`,
    });
    process.exit(0);
  }

  /** The script's end with its return value, made JSON text by the prelude's function, in the guest's bounds. */
  private returned(value: QuickJSHandle): void {
    const made = this.context.callFunction(this.toJson as QuickJSHandle, this.context.undefined, value);
    value.dispose();
    if (made.error) {
      this.failWith(made.error, 'returning');
      return;
    }
    const json = this.context.getString(made.value);
    made.value.dispose();
    this.end({ ok: true, json });
  }

  private failWith(error: QuickJSHandle, stage?: 'parsing' | 'returning'): void {
    const dumped = this.context.dump(error);
    error.dispose();
    this.end(guestError(dumped, this.code, this.limits, stage));
  }

  private end(end: ScriptEnd): void {
    if (this.ended) return;
    this.ended = true;
    post({ kind: 'done', logs: this.logs, logsDropped: this.logsDropped, ...end });
    for (const deferred of this.waiting.values()) deferred.dispose();
    this.waiting.clear();
    this.promise?.dispose();
    this.toJson?.dispose();
    try {
      this.context.dispose();
      this.runtime.dispose();
    } catch {
      // A runtime stopped mid-way may still hold objects QuickJS cannot free: this thread ends,
      // and the server starts a fresh one for the next script.
      process.exit(0);
    }
    current = undefined;
  }
}

function stringOf(context: QuickJSContext, handle: QuickJSHandle | undefined): string {
  return handle === undefined ? '' : context.getString(handle);
}

let current: Run | undefined;

port.on('message', (message: ToRunner) => {
  try {
    if (message.kind === 'run') {
      current = new Run(message.code, message.limits);
      current.start();
    } else current?.answer(message);
  } catch (error) {
    current?.broke(error);
  }
});
post({ kind: 'ready' });
