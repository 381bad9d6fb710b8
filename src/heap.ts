/**
 * Imported first by the CLI, before any other module loads. The MCP server handles one request at a
 * time, each a few kilobytes of short-lived objects, yet V8 doubles its young generation step by step
 * up to 32 MB of garbage space under steady load. Keeping it at its first size holds a busy server
 * near 80 MB instead of 110 MB with no cost in latency (tools/bench/server.mjs). V8 reads this flag
 * whenever the young generation would grow, so setting it at run time takes effect.
 *
 * The sandbox command keeps V8's default: it builds large answers at high rates and a small young
 * generation would cost it throughput.
 */
import { setFlagsFromString } from 'node:v8';

if (process.argv[2] !== 'sandbox') setFlagsFromString('--semi-space-growth-factor=1');
