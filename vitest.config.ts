import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    // Tests start real processes and servers on loopback; a slow 2-core machine needs headroom.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    teardownTimeout: 15_000,
    // Three workers for two cores: a test file waits on its child processes and sockets much of
    // the time, and a third worker keeps both cores busy meanwhile.
    pool: 'forks',
    maxWorkers: 3,
    isolate: false,
  },
});
