import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['test/helpers/global-setup.ts'],
    // Tests start real processes and servers on loopback; a 2-core machine busy with a second
    // suite beside this one (a new user's first run, as CI's fresh clone) needs headroom.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    teardownTimeout: 15_000,
    // Three workers for two cores: a test file waits on its child processes and sockets much of
    // the time, and a third worker keeps both cores busy meanwhile.
    pool: 'forks',
    maxWorkers: 3,
    isolate: false,
    // `code` is what npm test runs; `package`, what a release publishes (the npm package as npx
    // installs it, the desktop bundle as a host starts it), is npm run release:check's
    // (docs/decisions/010-the-package-checked-with-the-release.md). `vitest run` runs both.
    projects: [
      { extends: true, test: { name: 'code', include: ['test/**/*.test.ts'], exclude: ['test/dist/**'] } },
      { extends: true, test: { name: 'package', include: ['test/dist/**/*.test.ts'] } },
    ],
  },
});
