/** Where per-user state (the credit ledger) lives by default, by each platform's convention. */
import { homedir } from 'node:os';
import { join } from 'node:path';

export function defaultStateDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'svc-mcp');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'svc-mcp');
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'svc-mcp');
}
