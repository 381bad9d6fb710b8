import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    // Tests start real processes and servers on loopback; a slow 2-core machine needs headroom.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    teardownTimeout: 15_000,
    // Two workers for two cores: each test file also runs CLI child processes of its own.
    pool: 'forks',
    maxWorkers: 3,
    isolate: false,
  },
});
