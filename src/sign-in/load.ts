/**
 * The sign-in server loaded on demand, only with SVC_SIGN_IN=own-key: the authorization server and
 * its dependencies stay out of every other mode. What oidc-provider prints at load goes to the log;
 * its warning about a Node before 22 is said once in svc-mcp's words instead (index.ts).
 */

import type { Config } from '../config/index.js';
import { consoleToLog } from '../ops/logs.js';
import type { Services } from '../services/index.js';
import type { OwnKey, OwnKeyOptions } from './index.js';

const UNSUPPORTED_RUNTIME = /^oidc-provider WARNING: Unsupported runtime/;

export function loadOwnKey(services: Services, config: Config, options?: OwnKeyOptions): Promise<OwnKey> {
  return consoleToLog(
    services.log,
    async () => (await import('./index.js')).openOwnKey(services, config, options),
    UNSUPPORTED_RUNTIME,
  );
}
