import { relative } from 'node:path';
import { defineConfig, type ViteUserConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files whose time is not on record first, the largest first (a new file, or one the last run left
 * out, as CI's suite on Node 22 leaves out the files npm test alone runs), then the others, the
 * longest first. vitest's own order compares a file without a time with one that has a time by
 * their sizes, which can start a long one last and leave a worker running it alone at the end.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    const key = (file: TestSpecification) => `${file.project.name}:${relative(config.root, file.moduleId)}`;
    const took = (file: TestSpecification) => cache.getFileTestResults(key(file))?.duration;
    const size = (file: TestSpecification) => cache.getFileStats(key(file))?.size ?? 0;
    return [...files].sort((a, b) => {
      const [ta, tb] = [took(a), took(b)];
      if (ta === undefined && tb === undefined) return size(b) - size(a);
      if (ta === undefined || tb === undefined) return ta === undefined ? -1 : 1;
      return tb - ta;
    });
  }
}

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
  sequence: { sequencer: LongestFirst },
};

// Every test but the package's (test/dist/), which npm run release:check runs with its own config
// (docs/decisions/010-the-package-checked-with-the-release.md).
export default defineConfig({
  test: { ...shared, include: ['test/**/*.test.ts'], exclude: ['test/dist/**'] },
});
