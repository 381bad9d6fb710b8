/** Where per-user state (the credit ledger) lives by default, by each platform's convention. */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export function defaultStateDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'svc-mcp');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'svc-mcp');
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'svc-mcp');
}

/**
 * `dir` made with its missing parents, each private; throws ENOTDIR at once when it is a file. One
 * level at a time: Node's recursive mkdir never returns for a path under /proc (it tries again the
 * parent it cannot make, without end), where one level fails at once with ENOENT. A file in its
 * place is refused here because the ledger's lock would retry it for seconds before failing.
 */
export function makeStateDir(dir: string): void {
  const missing: string[] = [];
  for (let d = resolve(dir); !existsSync(d) && dirname(d) !== d; d = dirname(d)) missing.push(d);
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d, { mode: 0o700 });
    } catch (error) {
      // Made meanwhile by another process starting beside this one.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  if (!statSync(dir).isDirectory()) {
    throw Object.assign(new Error(`ENOTDIR: not a directory, ${dir}`), { code: 'ENOTDIR', path: dir });
  }
}
