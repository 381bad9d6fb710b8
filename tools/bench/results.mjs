// @ts-check
/**
 * A benchmark's figures, kept as JSON in tools/bench/results/ (one file per benchmark and Node
 * major version, replaced by each run): what was measured, its value and unit, the target where
 * there is one and whether it was met, with the command, the Node version and the date. The
 * performance page (docs/performance.md) is generated from these files by `npm run docs`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RESULTS = fileURLToPath(new URL('./results/', import.meta.url));

/**
 * One figure: `value` in `unit`; a `target` is `{ most }` or `{ least }` in the same unit, and
 * `met` is computed from it.
 */
export function figure(measure, value, unit, target) {
  const rounded = Number(value.toPrecision(4));
  if (!target) return { measure, value: rounded, unit };
  const met = target.most !== undefined ? value <= target.most : value >= target.least;
  return { measure, value: rounded, unit, target, met };
}

/**
 * A count given on the command line (`--calls 2000`): a whole number from 1 to `most`, or the
 * benchmark stops with exit code 2 saying so.
 * @param {Record<string, unknown>} values what parseArgs read
 * @param {string} name the option's name, without its dashes
 * @param {number} most
 */
export function countOption(values, name, most) {
  const value = Number(values[name]);
  if (Number.isInteger(value) && value >= 1 && value <= most) return value;
  console.error(`--${name} must be a whole number from 1 to ${most}`);
  process.exit(2);
}

/** Writes the bench's figures (and prints where); `command` is how to run it again. */
export function saveResults(bench, command, figures) {
  mkdirSync(RESULTS, { recursive: true });
  const node = process.versions.node;
  const file = join(RESULTS, `${bench}.node${node.split('.')[0]}.json`);
  const result = { bench, command, node, date: new Date().toISOString().slice(0, 10), figures };
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`figures written to ${file}`);
}
