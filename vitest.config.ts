import { defineConfig, type ViteUserConfig } from 'vitest/config';

/** What every run of the tests shares, the package tests' (test/dist/vitest.config.ts) too. */
export const shared: NonNullable<ViteUserConfig['test']> = {
  globalSetup: ['test/helpers/global-setup.ts'],
  // Tests start real processes and servers on loopback; a 2-core machine busy with a second
  // suite beside this one (a new user's first run, as CI's fresh clone) needs headroom.
  testTimeout: 60_000,
  hookTimeout: 60_000,
  teardownTimeout: 15_000,
  // Three workers for two cores: a test file waits on its child processes and sockets much of
  // the time, and a third worker keeps both cores busy meanwhile. Test files share a worker
  // process: the server's modules load once a worker, not once a file.
  pool: 'forks',
  maxWorkers: 3,
  isolate: false,
};

// Every test but the package's (test/dist/), which npm run release:check runs with its own config
// (docs/decisions/010-the-package-checked-with-the-release.md).
export default defineConfig({
  test: { ...shared, include: ['test/**/*.test.ts'], exclude: ['test/dist/**'] },
});
