/**
 * The scripts, the views and the test helpers written in JavaScript are type-checked too: each
 * .mjs file opts in with `// @ts-check` (after its shebang), which `npm run typecheck` reads through
 * tsconfig.mjs.json. A new file without it would be left unchecked.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';

const FOLDERS = ['scripts', 'tools', 'views', 'test'];

describe('.mjs files', () => {
  it('each opts in to the type check', () => {
    const files = FOLDERS.flatMap((folder) =>
      readdirSync(join(REPO_ROOT, folder), { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith('.mjs'))
        .map((name) => join(folder, name)),
    );
    expect(files.length).toBeGreaterThan(20);
    const unchecked = files.filter((file) => {
      const lines = readFileSync(join(REPO_ROOT, file), 'utf8').split('\n');
      const first = lines[0]?.startsWith('#!') ? lines[1] : lines[0];
      return first !== '// @ts-check';
    });
    expect(unchecked).toEqual([]);
  });
});
