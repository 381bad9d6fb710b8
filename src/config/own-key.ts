/**
 * Where callers bring no key of their own (stdio, `svc-mcp call`, `svc-mcp demo`), a service named
 * by SVC_BASE_URL needs the server's own, SVC_API_KEY: refused at the start, not at the first call.
 */
import { ConfigError } from './error.js';
import type { Config } from './index.js';

export function requireOwnKey(config: Config, where: string): void {
  if (config.baseUrl !== undefined && config.apiKey === undefined) {
    throw new ConfigError(
      `SVC_API_KEY is required ${where} when SVC_BASE_URL is set: a key is needed to call the service (leave both unset to use the built-in sandbox).`,
    );
  }
}
