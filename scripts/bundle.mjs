#!/usr/bin/env node
// @ts-check
/**
 * `npm run bundle`: the MCP Bundle for desktop hosts, built from a production-only install so that
 * it carries the server and its runtime dependencies and nothing else (no compiler, linter, tests
 * or sources). Stages the build, the manifest and the icon in a temporary directory, installs the
 * locked production dependencies there, validates the manifest and packs with `mcpb`, honouring
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
  execFileSync(process.execPath, [mcpb, 'validate', join(stage, 'manifest.json')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  execFileSync(process.execPath, [mcpb, 'pack', stage, out], { stdio: ['ignore', 'ignore', 'inherit'] });
  console.log(`${out}: ${(statSync(out).size / 1024 / 1024).toFixed(2)} MB`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
