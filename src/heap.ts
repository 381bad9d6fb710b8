/**
 * Set first by the CLI (cli.ts), before any other module loads, and only there: a program that
 * builds the server itself (the tests) keeps its own settings. V8 flags that keep the server's
 * memory small, set at run time (V8 reads them when it needs them). On stdio the young generation
 * keeps its first size; over HTTP the old generation grows by a fifth rather than fourfold from the
 * start, and on stdio once the server has started (sooner, it slows the `initialize` answer);
 * WebAssembly is optimised only where it runs long (SQLite's queries), not undici's HTTP parser.
 * `svc-mcp sandbox` keeps V8's defaults; the others also collect their garbage when heavy work
 * stops (idle-collection.ts), and a stdio server once it has started. Why, with the figures:
 * docs/decisions/001-heap-settings.md, 019, 020.
 */
import { setFlagsFromString } from 'node:v8';
import { cpuTurns } from './cpu-turns.js';
import { fullCollection, IdleCollection } from './idle-collection.js';

/** V8's full collection, made callable when the CLI's command is a server's (not the sandbox's). */
let collect: (() => void) | undefined;

/** The settings of the CLI's `command` (undefined: stdio, the default), set as it starts. */
export function setHeapFor(command: string | undefined): void {
  if (command === 'http') setFlagsFromString('--heap-growing-percent=20');
  if (command === 'sandbox') return;
  setFlagsFromString('--wasm-tiering-budget=18000000');
  if (command !== 'http') setFlagsFromString('--semi-space-growth-factor=1');
  collect = fullCollection();
  cpuTurns.afterHeavy = new IdleCollection(collect).heavy;
}

/**
 * The old generation's bound for a stdio server that has started. V8 sets the bound at a full
 * collection, and its last ran during start-up, with V8's own: one now applies this one from the
 * start (tens of milliseconds, once, after the tool list is answered).
 */
export function afterStartup(): void {
  setFlagsFromString('--heap-growing-percent=20');
  collect?.();
}
