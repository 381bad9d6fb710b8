/** What the README says to run, read from the README itself so that the tests run it as written. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './cli.js';

/** The command lines of a README section's `sh` blocks, comments dropped. */
export function readmeCommands(heading: string): string[] {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf(`${heading}\n`);
  const level = heading.split(' ')[0];
  const end = readme.indexOf(`\n${level} `, start + heading.length);
  const section = readme.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((m) => m[1].split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
}
