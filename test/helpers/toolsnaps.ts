/**
 * One committed file per tool (test/mcp/__toolsnaps__/<tool>.json) with its whole definition as
 * tools/list gives it: a changed description, schema or annotation shows in review as a change of
 * that tool's file. `UPDATE_TOOLSNAPS=1 npx vitest run test/mcp/toolsnaps.test.ts` rewrites them.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const TOOLSNAPS_DIR = join(import.meta.dirname, '..', 'mcp', '__toolsnaps__');
export const UPDATE = process.env.UPDATE_TOOLSNAPS === '1';
export const HOW_TO_UPDATE =
  'If the change is meant, run UPDATE_TOOLSNAPS=1 npx vitest run test/mcp/toolsnaps.test.ts and review the files.';

/** The committed definition of a tool, or undefined when there is none. */
export function readToolsnap(name: string): unknown {
  const path = join(TOOLSNAPS_DIR, `${name}.json`);
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
}

/** The tools that have a committed file. */
export function toolsnapNames(): string[] {
  return readdirSync(TOOLSNAPS_DIR)
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length));
}

/** Write every definition, and remove the files of tools that no longer exist. */
export function writeToolsnaps(definitions: readonly { name: string }[]): void {
  mkdirSync(TOOLSNAPS_DIR, { recursive: true });
  const names = new Set(definitions.map((d) => d.name));
  for (const stale of toolsnapNames().filter((name) => !names.has(name))) {
    rmSync(join(TOOLSNAPS_DIR, `${stale}.json`));
  }
  for (const definition of definitions) {
    writeFileSync(join(TOOLSNAPS_DIR, `${definition.name}.json`), `${JSON.stringify(definition, null, 2)}\n`);
  }
}
