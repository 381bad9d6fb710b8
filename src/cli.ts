#!/usr/bin/env node
/**
 * The one entry point, `svc-mcp`: the commands are commands.ts's. Node starts with V8's own heap
 * sizes; heap.ts sets what can be set once it runs, before the commands load
 * (docs/decisions/011-default-semi-spaces.md).
 *
 * Node's compile cache (Node 22.1 and later) is turned on before anything else loads, so that a
 * start after the first reads the compiled code of this package and its dependencies instead of
 * compiling it again. It is kept where NODE_COMPILE_CACHE says, else in the system's temporary
 * directory (`node-compile-cache`); NODE_DISABLE_COMPILE_CACHE=1 turns it off. Node 20 has none.
 */
import module from 'node:module';

(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
(await import('./heap.js')).setHeapFor(process.argv[2]);
await import('./commands.js');
