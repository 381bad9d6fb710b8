/**
 * The forge runs what CI runs: `.github/workflows/ci.yml` runs `.ci/run` on pushes and pull
 * requests, a release publishes only after that and from its protected environment, and every
 * action is pinned by commit (a tag can be moved; a commit cannot).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const workflow = (name: string) =>
  readFileSync(new URL(`../.github/workflows/${name}`, import.meta.url), 'utf8');

describe('workflows', () => {
  it('ci.yml runs .ci/run on every push and pull request', () => {
    const ci = workflow('ci.yml');
    expect(ci).toMatch(/^on:\n {2}push:\n(.|\n)*\n {2}pull_request:/m);
    expect(ci).toMatch(/^ +run: \.ci\/run$/m);
  });

  it('a release waits for CI and publishes from the protected environment', () => {
    const release = workflow('release.yml');
    expect(release).toMatch(/^ {2}release:\n {4}needs: ci\n(.|\n)*?^ {4}environment: release$/m);
  });

  it('every action is pinned by commit', () => {
    for (const name of ['ci.yml', 'release.yml']) {
      const uses = [...workflow(name).matchAll(/uses: (\S+)/g)].map((m) => m[1]);
      expect(uses.length, name).toBeGreaterThan(0);
      for (const action of uses) expect(action, name).toMatch(/^[\w-]+\/[\w-]+@[0-9a-f]{40}$/);
    }
  });
});
