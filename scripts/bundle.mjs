#!/usr/bin/env node
// @ts-check
/**
 * `npm run bundle`: the MCP Bundle for desktop hosts, built from a production-only install so that
 * it carries the server and its runtime dependencies and nothing else (no compiler, linter, tests
 * or sources). Stages the build, the manifest and the icon in a temporary directory, installs the
 * locked production dependencies there, keeps of them only the build's externals and what they need
 * (esbuild bundled the rest into dist/), validates the manifest and packs with `mcpb`, honouring
 * .mcpbignore. Writes svc-mcp-VERSION.mcpb in the repository and prints its size.
 *
 *   npm run build && node scripts/bundle.mjs [--out FILE]
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { isExternal } from './externals.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const { values } = parseArgs({ options: { out: { type: 'string' } } });
const out = values.out ?? join(root, `${pkg.name}-${pkg.version}.mcpb`);

if (!existsSync(join(root, 'dist', 'cli.js'))) {
  console.error('dist/cli.js is missing: run `npm run build` first.');
  process.exit(2);
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const mcpb = join(root, 'node_modules', '@anthropic-ai', 'mcpb', 'dist', 'cli', 'cli.js');

/**
 * Removes from the stage's node_modules every installed package that no package `roots` names
 * needs, by the lock's dependencies (each resolved as Node does: nested first, then hoisted).
 */
function pruneTo(stageDir, roots) {
  const lock = JSON.parse(readFileSync(join(stageDir, 'package-lock.json'), 'utf8')).packages;
  const kept = new Set();
  const resolve = (from, name) => {
    for (let at = from; ; at = at.slice(0, at.lastIndexOf('/node_modules/'))) {
      const path = `${at ? `${at}/` : ''}node_modules/${name}`;
      if (lock[path]) return path;
      if (!at.includes('/node_modules/'))
        return lock[`node_modules/${name}`] ? `node_modules/${name}` : undefined;
    }
  };
  const visit = (path) => {
    if (path === undefined || kept.has(path)) return;
    kept.add(path);
    const { dependencies = {}, optionalDependencies = {} } = lock[path];
    for (const name of Object.keys({ ...dependencies, ...optionalDependencies })) visit(resolve(path, name));
  };
  for (const name of roots) visit(resolve('', name));
  for (const path of Object.keys(lock)) {
    if (path.startsWith('node_modules/') && !path.slice(13).includes('/node_modules/') && !kept.has(path))
      rmSync(join(stageDir, path), { recursive: true, force: true });
  }
}

const stage = mkdtempSync(join(tmpdir(), 'svc-mcp-bundle-'));
try {
  for (const entry of [
    'dist',
    'package.json',
    'package-lock.json',
    'manifest.json',
    'icon.png',
    'LICENSE',
    'README.md',
    '.mcpbignore',
  ]) {
    cpSync(join(root, entry), join(stage, entry), { recursive: true });
  }
  // The locked production dependencies only; no scripts (the build is already in dist/). Nor the
  // optional better-sqlite3: its binary would be this machine's, for this Node, and a desktop
  // host's Node (22.13 or later) has SQLite built in.
  execFileSync(
    npm,
    [
      'ci',
      '--omit=dev',
      '--omit=optional',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
    ],
    {
      cwd: stage,
      stdio: ['ignore', 'ignore', 'inherit'],
      shell: process.platform === 'win32',
    },
  );
  // What esbuild left external is all dist/ loads from node_modules; the rest it bundled.
  pruneTo(stage, Object.keys(pkg.dependencies).filter(isExternal));
  execFileSync(process.execPath, [mcpb, 'validate', join(stage, 'manifest.json')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  execFileSync(process.execPath, [mcpb, 'pack', stage, out], { stdio: ['ignore', 'ignore', 'inherit'] });
  console.log(`${out}: ${(statSync(out).size / 1024 / 1024).toFixed(2)} MB`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
