/** Scans the recorder's files for secrets: used by the global teardown and by its own self-test. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ScanResult {
  files: number;
  bytes: number;
  /** `file: line` for each recorded line holding a secret, each secret in it masked. */
  hits: string[];
}

const NEWLINE = 0x0a;

/**
 * Each file is read once and searched as bytes for every secret: a run records a hundred MB or
 * more, and only the lines that hold a secret are ever decoded.
 */
export function scanForSecrets(dir: string, secrets: readonly string[]): ScanResult {
  const result: ScanResult = { files: 0, bytes: 0, hits: [] };
  if (!existsSync(dir)) return result;
  const needles = secrets.map((secret) => Buffer.from(secret));
  for (const name of readdirSync(dir)) {
    const bytes = readFileSync(join(dir, name));
    result.files += 1;
    result.bytes += bytes.length;
    const lineStarts = new Set<number>();
    for (const needle of needles) {
      for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + needle.length)) {
        lineStarts.add(bytes.lastIndexOf(NEWLINE, at) + 1);
      }
    }
    for (const start of [...lineStarts].sort((a, b) => a - b)) {
      const newline = bytes.indexOf(NEWLINE, start);
      let line = bytes.toString('utf8', start, newline === -1 ? bytes.length : newline);
      for (const secret of secrets) line = line.replaceAll(secret, '<SECRET>');
      result.hits.push(`${name}: ${line.slice(0, 300)}`);
    }
  }
  return result;
}
