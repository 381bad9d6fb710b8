import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
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
  },
});
