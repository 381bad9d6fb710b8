#!/usr/bin/env node
// @ts-check
/**
 * Imports run one way: each folder (or top-level module) of src/ may import only the parts listed
 * for it below, so that the definition kit stays data, the client knows nothing of tools, and the
 * sandbox never reaches into the server. A package is imported by its public entry points: a file
 * of a package without an exports map only where PRIVATE_PATHS names it (docs/decisions/015).
 * `npm run lint` runs this; a new folder must be added here.
 * Usage: node scripts/check-deps.mjs [root]   (root defaults to the repository)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What each part may import, besides itself and packages. Leaves import nothing of ours. */
const MAY_IMPORT = {
  calendar: [],
  'currency-ids': [],
  icon: [],
  messages: [],
  'package-files': [],
  version: ['package-files'],
  'state-dir': [],
  'cpu-turns': [],
  'idle-collection': [],
  // V8's settings, set as the CLI starts: the collections once heavy work stops among them.
  heap: ['cpu-turns', 'idle-collection'],
  'time-bounds': [],
  analysis: [],
  format: ['calendar', 'currency-ids'],
  // The way a tool is defined; then the tools defined with it; then the list of them all.
  kit: ['calendar', 'messages'],
  endpoints: ['calendar', 'currency-ids', 'kit', 'format', 'messages'],
  local: ['analysis', 'calendar', 'kit', 'endpoints', 'format', 'messages'],
  inventory: ['kit', 'endpoints', 'local', 'messages'],
  config: ['kit', 'messages', 'state-dir', 'time-bounds'],
  ops: ['kit', 'config', 'version'],
  redis: ['ops'],
  upstream: ['cpu-turns', 'format', 'messages', 'time-bounds'],
  cache: ['cpu-turns', 'kit', 'redis', 'state-dir'],
  guard: ['calendar', 'kit', 'format', 'redis', 'state-dir'],
  // Kept results as tables, and the query engine over them: a result kept as the service sent it is
  // normalised again by its tool's endpoint.
  kept: ['cache', 'currency-ids', 'endpoints', 'kit', 'package-files', 'redis', 'state-dir'],
  // Scripts over the tools: the runner's thread (QuickJS), and their declarations.
  script: ['kit', 'package-files'],
  // The sandbox is the service's independent witness: its table of the service is its own.
  sandbox: ['calendar', 'messages', 'state-dir'],
  // The composition root: each process's shared parts (data source, ledger, cache, kept tables).
  services: [
    'cache',
    'config',
    'guard',
    'kept',
    'messages',
    'ops',
    'redis',
    'sandbox',
    'script',
    'state-dir',
    'time-bounds',
    'upstream',
  ],
  // What an HTTP request is read and refused with, for the MCP transport and the sign-in server.
  http: [],
  // The sign-in server (SVC_SIGN_IN=own-key), which the HTTP transport loads.
  'sign-in': [
    'config',
    'endpoints',
    'format',
    'guard',
    'http',
    'ops',
    'redis',
    'services',
    'state-dir',
    'upstream',
  ],
  call: [
    'services',
    'cache',
    'kit',
    'cpu-turns',
    'format',
    'guard',
    'kept',
    'messages',
    'ops',
    'inventory',
    'script',
    'upstream',
  ],
  mcp: [
    'http',
    'services',
    'sign-in',
    'call',
    'kit',
    'config',
    'endpoints',
    'format',
    'guard',
    'heap',
    'icon',
    'local',
    'messages',
    'package-files',
    'inventory',
    'version',
  ],
  commands: [
    'call',
    'kit',
    'config',
    'mcp',
    'messages',
    'package-files',
    'sandbox',
    'inventory',
    'services',
    'version',
  ],
  cli: ['commands', 'heap'],
  // The build's entry for the repository's scripts, benchmarks and tests.
  'for-scripts': [
    'cache',
    'kit',
    'config',
    'format',
    'guard',
    'icon',
    'kept',
    'mcp',
    'ops',
    'redis',
    'sandbox',
    'inventory',
  ],
};

const IMPORT = /(?:import|export)\s[^;]*?from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g;
const PACKAGE_IMPORT =
  /(?:import|export)\s[^;]*?from\s+'([^.'][^']*)'|import\(\s*'([^.'][^']*)'\s*\)|declare module '([^.'][^']*)'/g;

/** The files of dependencies imported by path, each held by test/dependencies/ (decision 015). */
const PRIVATE_PATHS = ['undici/lib/dispatcher/agent.js', 'oidc-provider/lib/helpers/als.js'];

/** Why `specifier` reaches into a package's own files, if it does: a subpath the package does not export. */
function privatePath(root, specifier) {
  if (specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  const nameLength = specifier.startsWith('@') ? 2 : 1;
  if (parts.length <= nameLength || PRIVATE_PATHS.includes(specifier)) return undefined;
  const name = parts.slice(0, nameLength).join('/');
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8'));
  } catch {
    return undefined;
  }
  // With an exports map, Node itself refuses a subpath it does not list.
  return manifest.exports === undefined
    ? `'${specifier}' is a file of ${name}, not an entry point`
    : undefined;
}

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

/** `kit` for src/kit/x.ts, `cli` for src/cli.ts. */
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
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(PACKAGE_IMPORT)) {
    const problem = privatePath(root, match[1] ?? match[2] ?? match[3]);
    if (problem) problems.push(`${relative(root, file)}: ${problem} (docs/decisions/015)`);
  }
  for (const match of text.matchAll(IMPORT)) {
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
