#!/usr/bin/env node
// @ts-check
/**
 * `npm run build`: dist/ from src/, one JavaScript file for each TypeScript file, at the same path
 * (src/cli.ts → dist/cli.js, its first line kept), by esbuild. It removes the types and nothing
 * else: no bundling, no renaming, the same imports. Type errors are `npm run typecheck`'s to find
 * (tsc over src, test and tools at once); `isolatedModules` in tsconfig.json makes tsc refuse what
 * a file-by-file build could get wrong. docs/decisions/007 says why the two are apart. The JSON
 * files under src/ (the generated tool list) are copied beside the code that reads them.
 *
 *   node scripts/build.mjs
 */
import { copyFileSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const sources = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
  .map((file) => join(root, 'src', file));

rmSync(join(root, 'dist'), { recursive: true, force: true });
await build({
  entryPoints: sources,
  outdir: join(root, 'dist'),
  outbase: join(root, 'src'),
  format: 'esm',
  platform: 'node',
  // The oldest Node the package supports (engines), so that nothing it runs is rewritten.
  target: `node${pkg.engines.node.replace(/^>=/, '')}`,
  tsconfig: join(root, 'tsconfig.json'),
  logLevel: 'warning',
});
for (const file of readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) =>
  f.endsWith('.json'),
)) {
  copyFileSync(join(root, 'src', file), join(root, 'dist', file));
}
