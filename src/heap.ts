/**
 * Imported first by the CLI, before any other module loads, to keep the MCP server's memory small
 * (tools/bench/server.mjs measures it). V8 reads both flags when it needs them, so setting them at
 * run time takes effect:
 *
 * - On stdio the server handles one request at a time, each a few kilobytes of short-lived objects, yet V8
 *   doubles its young generation step by step up to 32 MB of garbage space under steady load.
 *   Keeping it at its first size saves about 25 MB with no cost in latency.
 * - undici parses HTTP with a WebAssembly module. V8 compiles it twice by default, quickly and then
 *   optimised; the optimised copy costs about 4 MB and parses our answers no faster.
 *
 * The sandbox and the HTTP server keep V8's defaults: they answer many requests at once, at high
 * rates, and a small young generation would cost them throughput.
 */
import { setFlagsFromString } from 'node:v8';

if (process.argv[2] !== 'sandbox' && process.argv[2] !== 'http') {
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--liftoff-only');
}
