/** Scans the recorder's files for a secret: used by the global teardown and by its own self-test. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ScanResult {
  files: number;
  bytes: number;
  /** `file: line` for each recorded line holding the secret, the secret itself masked. */
  hits: string[];
}

export function scanForSecret(dir: string, secret: string): ScanResult {
  const result: ScanResult = { files: 0, bytes: 0, hits: [] };
  if (!existsSync(dir)) return result;
  for (const name of readdirSync(dir)) {
    const text = readFileSync(join(dir, name), 'utf8');
    result.files += 1;
    result.bytes += Buffer.byteLength(text);
    for (const line of text.split('\n')) {
      if (line.includes(secret))
        result.hits.push(`${name}: ${line.replaceAll(secret, '<SECRET>').slice(0, 300)}`);
    }
  }
  return result;
}
