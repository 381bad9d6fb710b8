/**
 * Runs once around the whole test run: refuses to start without a built CLI, gives the workers a
 * directory to record into, one for their state and a shared redis-server (redis.ts), and
 * afterwards stops it, removes the state and fails the run if a secret key (secret.ts) appears
 * anywhere in the record.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { scanForSecrets } from './leak-scan.js';
import { redisMissing, startRedis } from './redis.js';
import { SECRETS } from './secret.js';

declare module 'vitest' {
  export interface ProvidedContext {
    recordDir: string;
    stateRoot: string;
    /** The shared redis-server (redis.ts), or '' where there is none. */
    redisUrl: string;
  }
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'dist', 'cli.js');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export default async function setup(project: TestProject) {
  if (!existsSync(CLI)) {
    throw new Error(
      `dist/cli.js is missing: the end-to-end tests run the built CLI. Run \`npm run build\` first (\`npm test\` builds before testing).`,
    );
  }
  if (newestMtime(join(ROOT, 'src')) > statSync(CLI).mtimeMs) {
    console.warn(
      'warning: src/ has changes newer than dist/cli.js; the tests run the old build (npm run build)',
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'svc-mcp-record-'));
  project.provide('recordDir', dir);
  // Credit ledgers, one directory per test file under it: never another run's (process ids recur).
  const stateRoot = mkdtempSync(join(tmpdir(), 'svc-mcp-test-state-'));
  project.provide('stateRoot', stateRoot);
  const redis = redisMissing() === undefined ? await startRedis(() => {}) : undefined;
  project.provide('redisUrl', redis?.url ?? '');

  return async () => {
    await redis?.close();
    rmSync(stateRoot, { recursive: true, force: true });
    const scan = scanForSecrets(dir, SECRETS);
    rmSync(dir, { recursive: true, force: true });
    const { hits } = scan;
    if (hits.length > 0) {
      // Vitest reports an error thrown here but keeps the exit code: set it, so the run fails.
      process.exitCode = 1;
      throw new Error(
        `An API key leaked: it appears ${hits.length} time(s) in what the CLI printed or answered:\n${hits.join('\n')}`,
      );
    }
    console.log(
      `key leak check: scanned ${scan.bytes} bytes from ${scan.files} recorder file(s) for ${SECRETS.length} keys; none found`,
    );
  };
}
