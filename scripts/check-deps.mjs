#!/usr/bin/env node
// @ts-check
/**
 * Imports run one way: each folder (or top-level module) of src/ may import only the parts listed
 * for it below, so that the catalog stays data, the client knows nothing of tools, and the sandbox
 * never reaches into the server. `npm run lint` runs this; a new folder must be added here.
 * Usage: node scripts/check-deps.mjs [root]   (root defaults to the repository)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What each part may import, besides itself and packages. Leaves import nothing of ours. */
const MAY_IMPORT = {
  calendar: [],
  icon: [],
  messages: [],
  'package-files': [],
  version: ['package-files'],
  'state-dir': [],
  heap: [],
  'cpu-turns': [],
  'time-bounds': [],
  analysis: [],
  format: ['calendar'],
  // The way a tool is defined; then the tools defined with it; then the list of them all.
  catalog: ['calendar', 'messages'],
  endpoints: ['calendar', 'catalog', 'format', 'messages'],
  local: ['analysis', 'calendar', 'catalog', 'endpoints', 'format', 'messages'],
  tools: ['catalog', 'endpoints', 'local', 'messages'],
  config: ['catalog', 'messages', 'state-dir', 'time-bounds'],
  ops: ['catalog', 'config', 'version'],
  redis: ['config', 'ops'],
  upstream: ['cpu-turns', 'format', 'messages', 'time-bounds'],
  cache: ['catalog', 'config', 'redis', 'state-dir'],
  guard: ['calendar', 'catalog', 'config', 'format', 'messages', 'redis', 'state-dir', 'time-bounds'],
  // Kept results as tables, and the query engine over them.
  kept: ['cache', 'catalog', 'package-files', 'redis', 'state-dir'],
  // The sandbox is the service's independent witness: its table of the service is its own.
  sandbox: ['calendar', 'format', 'messages', 'state-dir'],
  call: [
    'cache',
    'calendar',
    'catalog',
    'config',
    'cpu-turns',
    'format',
    'guard',
    'kept',
    'messages',
    'ops',
    'redis',
    'sandbox',
    'state-dir',
    'time-bounds',
    'tools',
    'upstream',
  ],
  mcp: [
    'call',
    'catalog',
    'config',
    'endpoints',
    'format',
    'guard',
    'heap',
    'icon',
    'local',
    'messages',
    'ops',
    'package-files',
    'redis',
    'state-dir',
    'tools',
    'upstream',
    'version',
  ],
  commands: ['call', 'catalog', 'config', 'mcp', 'messages', 'package-files', 'sandbox', 'tools', 'version'],
  cli: ['commands'],
  // The build's entry for the repository's scripts, benchmarks and tests.
  'for-scripts': [
    'cache',
    'catalog',
    'config',
    'format',
    'guard',
    'icon',
    'kept',
    'mcp',
    'ops',
    'redis',
    'sandbox',
    'tools',
  ],
};

const IMPORT = /(?:import|export)\s[^;]*?from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

/** `catalog` for src/catalog/x.ts, `cli` for src/cli.ts. */
function partOf(src, path) {
  const [first, second] = relative(src, path).split(sep);
  return second === undefined ? first.replace(/\.(d\.)?ts$/, '').replace(/\.js$/, '') : first;
}

const root = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const problems = [];
for (const file of files(src)) {
  const from = partOf(src, file);
  const allowed = MAY_IMPORT[from];
  if (allowed === undefined) {
    problems.push(`${relative(root, file)}: src/${from} has no entry in scripts/check-deps.mjs`);
    continue;
  }
  for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
    const target = normalize(join(dirname(file), match[1] ?? match[2]));
    const to = partOf(src, target);
    if (to !== from && !allowed.includes(to)) {
      problems.push(`${relative(root, file)}: ${from} may not import ${to} ('${match[1] ?? match[2]}')`);
    }
  }
}
if (problems.length > 0) {
  console.error(`Imports that run the wrong way (see scripts/check-deps.mjs):\n${problems.join('\n')}`);
  process.exit(1);
}
