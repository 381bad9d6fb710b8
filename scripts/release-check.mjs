#!/usr/bin/env node
// @ts-check
/**
 * `npm run release:check`: what a release needs, checked before anything is published. The build
 * and the type check; the tests that say what the package promises (the generated pages and
 * manifests, the tools' definitions, the skill, the units); `npm pack --dry-run` holding exactly the
 * files the package needs; the package tests (test/dist/, with their own vitest config: the npm
 * package as npx installs it, the desktop bundle built from a production install, validated by
 * mcpb and started as a host starts it); server.json valid against the MCP Registry's schema
 * (schemas/server.schema.json). Exit 1 on the first failure.
 * The release workflow (.github/workflows/release.yml) runs it on a tag before publishing, with
 * `--bundle-out FILE`: the bundle it attaches to the release, built once more at FILE.
 * `--after-suite` leaves out the build, the type check and the fast tests, for where `npm test` has
 * just run them on the same files (CI, .ci/run).
 *
 *   node scripts/release-check.mjs [--bundle-out FILE] [--after-suite]
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, stripVTControlCharacters } from 'node:util';
import { Ajv } from 'ajv';
import ajvFormats from 'ajv-formats';

const root = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const vitest = join(root, 'node_modules/vitest/vitest.mjs');
const { values } = parseArgs({
  options: { 'bundle-out': { type: 'string' }, 'after-suite': { type: 'boolean', default: false } },
});

/** The package holds the build and these files, and nothing else (npm adds package.json itself). */
const PACKAGE_FILES = ['LICENSE', 'README.md', 'manifest.json', 'package.json', 'server.json'];
const FAST_TESTS = [
  'test/kit',
  'test/format',
  'test/analysis',
  'test/time-bounds.test.ts',
  'test/docs.test.ts',
  'test/skill.test.ts',
  'test/mcp/toolsnaps.test.ts',
];

function step(title, run) {
  process.stdout.write(`--- ${title}\n`);
  try {
    const said = run();
    if (said) console.log(said);
  } catch (error) {
    console.error(`release check failed at "${title}": ${error.message ?? error}`);
    process.exit(1);
  }
}

const exec = (command, args) => execFileSync(command, args, { cwd: root, encoding: 'utf8', stdio: 'pipe' });

if (!values['after-suite']) {
  step('build', () => {
    exec(npm, ['run', 'build']);
  });

  // The build only removes the types (docs/decisions/007): a release is type-checked on its own.
  step('type check', () => {
    exec(npm, ['run', 'typecheck']);
  });

  step(`tests: ${FAST_TESTS.join(', ')}`, () => {
    const out = exec(process.execPath, [vitest, 'run', ...FAST_TESTS]);
    return stripVTControlCharacters(out.split('\n').find((line) => /Tests\s/.test(line)) ?? '').trim();
  });
}

step('npm pack --dry-run: the files the package needs, and no others', () => {
  const [packed] = JSON.parse(exec(npm, ['pack', '--dry-run', '--json', '--ignore-scripts']));
  const files = packed.files.map((f) => f.path);
  const stray = files.filter((f) => !f.startsWith('dist/') && !PACKAGE_FILES.includes(f));
  const missing = [...PACKAGE_FILES, 'dist/cli.js', 'dist/views/price.html'].filter(
    (f) => !files.includes(f),
  );
  const tests = files.filter((f) => /\.test\.|(^|\/)test\//.test(f));
  if (stray.length + missing.length + tests.length > 0) {
    throw new Error(
      `stray: ${stray.join(', ') || 'none'}; missing: ${missing.join(', ') || 'none'}; tests: ${tests.join(', ') || 'none'}`,
    );
  }
  return `${packed.name}@${packed.version}: ${files.length} files, ${(packed.size / 1024).toFixed(0)} KiB packed`;
});

step('the package tests: the npm package and the desktop bundle as people get them', () => {
  const out = exec(process.execPath, [vitest, 'run', '--config', 'test/dist/vitest.config.ts']);
  return stripVTControlCharacters(out.split('\n').find((line) => /Tests\s/.test(line)) ?? '').trim();
});

const bundleOut = values['bundle-out'];
if (bundleOut !== undefined) {
  step(`the desktop bundle for the release, at ${bundleOut}`, () =>
    exec(process.execPath, [join(root, 'scripts/bundle.mjs'), '--out', bundleOut])
      .trim()
      .split('\n')
      .at(-1),
  );
}

step('server.json against the MCP Registry schema', () => {
  const ajv = new Ajv({ strict: false, allErrors: true });
  // ajv-formats is CommonJS, whose default export TypeScript types as a namespace.
  /** @type {any} */ (ajvFormats)(ajv);
  const schema = JSON.parse(readFileSync(join(root, 'schemas/server.schema.json'), 'utf8'));
  const text = readFileSync(join(root, 'server.json'), 'utf8');
  const server = JSON.parse(text);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const validate = ajv.compile(schema);
  if (!validate(JSON.parse(text))) throw new Error(JSON.stringify(validate.errors));
  if (server.version !== pkg.version)
    throw new Error(`server.json is ${server.version}, package.json ${pkg.version}`);
  return `valid (${schema.$id})`;
});

console.log('release check passed');
