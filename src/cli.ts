#!/usr/bin/env -S node --max-semi-space-size=1
/**
 * The one entry point, `svc-mcp`: the commands are commands.ts's.
 *
 * The first line starts Node with 1 MB semi-spaces, which V8 reads only at start (npx, a global
 * install and npm's Windows shims read that line; the bundle's manifest repeats the flag): it keeps
 * a burst of heavy calls within its memory bound (docs/decisions/002-semi-space-flag.md).
 *
 * Node's compile cache (Node 22.1 and later) is turned on before anything else loads, so that a
 * start after the first reads the compiled code of this package and its dependencies instead of
 * compiling it again. It is kept where NODE_COMPILE_CACHE says, else in the system's temporary
 * directory (`node-compile-cache`); NODE_DISABLE_COMPILE_CACHE=1 turns it off. Node 20 has none.
 */
import module from 'node:module';

(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
await import('./commands.js');
