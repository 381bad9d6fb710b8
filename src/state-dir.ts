/**
 * Where per-user state (the credit ledger, kept results, sign-in's records) lives by default, by
 * each platform's convention, and how what is kept there stays private whatever the directory's mode.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
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

/**
 * An SQLite database's file made private (0600) before SQLite opens it: created empty when missing,
 * its mode set when it is there, and its `-wal` and `-shm` likewise when they are there. SQLite
 * gives a `-wal` or `-shm` it creates the database file's mode, so all three stay private whatever
 * the directory's mode and the process's umask.
 */
export function privateDatabaseFile(path: string): void {
  closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      chmodSync(file, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/**
 * One line for the operator when the state directory lets others in (group or other permissions):
 * its files are private, but their names and count are not. Undefined when it is private, or
 * not there yet (it is then made private), or on Windows, whose modes say nothing of this.
 */
export function stateDirNotice(dir: string, platform = process.platform): string | undefined {
  if (platform === 'win32') return undefined;
  let mode: number;
  try {
    mode = statSync(dir).mode & 0o777;
  } catch {
    return undefined;
  }
  if ((mode & 0o077) === 0) return undefined;
  return `The state directory ${dir} is open to others (mode ${mode.toString(8).padStart(3, '0')}): svc-mcp keeps its own files in it private (0600), but others can see which there are; chmod 700 it to close it.`;
}
