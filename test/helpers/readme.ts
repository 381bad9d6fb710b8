/** What the README and the docs say to run, read from the page itself so that the tests run it as written. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './cli.js';

/** The command lines of a section's `sh` blocks in a page (the README unless named), comments dropped. */
export function readmeCommands(heading: string, page = 'README.md'): string[] {
  const readme = readFileSync(join(REPO_ROOT, page), 'utf8');
  const start = readme.indexOf(`${heading}\n`);
  const level = heading.split(' ')[0];
  const end = readme.indexOf(`\n${level} `, start + heading.length);
  const section = readme.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((m) => m[1]!.split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
}
