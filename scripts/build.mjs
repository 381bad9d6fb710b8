#!/usr/bin/env node
// @ts-check
/**
 * `npm run build`: dist/ from src/, by esbuild. Four entries, each bundled with the packages it
 * loads: dist/cli.js, the command (`svc-mcp`); dist/query-engine.js, the query engine's thread,
 * with SQLite's WebAssembly beside it (dist/sqlite3.wasm); dist/script-runner.js, the script
 * runner's thread, with QuickJS's (dist/quickjs.wasm); and dist/for-scripts.js, what the
 * repository's scripts, benchmarks and tests load from the build. Code loaded only by some commands is split
 * into chunks beside them, loaded when a command needs it. A start reads a few files instead of
 * hundreds of modules: docs/decisions/012-the-cli-bundled.md. Every file written is directly in
 * dist/ (src/package-files.ts relies on it). Left out of the bundle, loaded from node_modules:
 * the native SQLite binding, and what loads only with a setting that needs it (Redis, logging,
 * telemetry, sign-in), so that a start without them reads none of it. Type errors are
 * `npm run typecheck`'s to find; `isolatedModules` in tsconfig.json makes tsc refuse what esbuild
 * could get wrong (docs/decisions/007-esbuild-builds-tsc-checks.md).
 *
 *   node scripts/build.mjs
 */
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { EXTERNAL } from './externals.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

rmSync(join(root, 'dist'), { recursive: true, force: true });
const result = await build({
  entryPoints: {
    cli: join(root, 'src/cli.ts'),
    'for-scripts': join(root, 'src/for-scripts.ts'),
    'query-engine': join(root, 'src/kept/engine-worker.ts'),
    'script-runner': join(root, 'src/script/worker.ts'),
  },
  outdir: join(root, 'dist'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  // The oldest Node the package supports (engines), so that nothing it runs is rewritten.
  target: `node${pkg.engines.node.replace(/^>=/, '')}`,
  tsconfig: join(root, 'tsconfig.json'),
  external: EXTERNAL,
  // The bundled packages that are CommonJS (undici, prom-client) call `require`.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
  },
  metafile: true,
  logLevel: 'warning',
});
// The engine's bundled SQLite, and the script runner's QuickJS, read their WebAssembly from beside
// the file each is bundled into.
copyFileSync(
  fileURLToPath(import.meta.resolve('@sqlite.org/sqlite-wasm/sqlite3.wasm')),
  join(root, 'dist/sqlite3.wasm'),
);
copyFileSync(
  fileURLToPath(import.meta.resolve('@jitl/quickjs-wasmfile-release-sync/wasm')),
  join(root, 'dist/quickjs.wasm'),
);
const nested = Object.keys(result.metafile.outputs)
  .map((file) => relative(join(root, 'dist'), join(root, file)))
  .filter((file) => file.includes('/'));
if (nested.length > 0) {
  console.error(`build: every file of the bundle must be directly in dist/, not ${nested.join(', ')}`);
  process.exit(1);
}
