/**
 * Imported first by the CLI, before any other module loads, to keep the MCP server's memory small
 * (tools/bench/server.mjs and tools/bench/load.mjs measure it). V8 reads these flags when it needs
 * them, so setting them at run time takes effect:
 *
 * - On stdio the server handles one request at a time, each a few kilobytes of short-lived objects, yet V8
 *   doubles its young generation step by step up to 32 MB of garbage space under steady load.
 *   Keeping it at its first size saves about 25 MB with no cost in latency.
 * - Over HTTP many requests are in flight at once, so their objects outlive young collections and
 *   reach the old generation, which V8 then lets grow to four times its live size (about 35 MB)
 *   before collecting it: 10,000 calls took the process from 125 to 245 MB. Growing it by a fifth
 *   instead keeps it within a few MB of where it started, for about 4% fewer calls a second. A
 *   burst of large calls on stdio does the same: 200 heavy calls on the embedded sandbox left the
 *   process at 259 MB with V8's default and at about 187 MB with it on Node 20, when the sandbox
 *   still ran on a thread of its own (tools/bench/burst.mjs --mix heaviest). On stdio it is set
 *   once the server has started (`afterStartup`): while the modules load it would make V8 collect
 *   again and again, about 50 ms more before the `initialize` answer.
 * - undici parses HTTP with a WebAssembly module. V8 compiles it twice by default, quickly and then
 *   optimised; the optimised copy costs about 4 MB and parses our answers no faster.
 *
 * `svc-mcp sandbox` keeps V8's defaults: it answers many requests at once, at high rates, and its
 * throughput is what its bench measures. The embedded sandbox runs on the server's thread, under
 * the server's flags.
 */
import { setFlagsFromString } from 'node:v8';

const command = process.argv[2];
if (command === 'http') setFlagsFromString('--heap-growing-percent=20');
if (command !== 'http' && command !== 'sandbox') setFlagsFromString('--semi-space-growth-factor=1');
if (command !== 'sandbox') setFlagsFromString('--liftoff-only');

/** The old generation's bound for a server that has started (stdio: see above). */
export function afterStartup(): void {
  setFlagsFromString('--heap-growing-percent=20');
}
