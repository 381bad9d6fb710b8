/**
 * The sandbox Market Data Service: a local, offline HTTP implementation of the spec on loopback,
 * used by `svc-mcp sandbox`, by the server's embedded default (no API key) and by the tests. The
 * requests are answered by the sandbox's handler (handler.ts); this listens.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SANDBOX_KEYS } from './accounts.js';
import type { FaultRule } from './faults.js';
import { SandboxHandler, type SandboxOptions, type SandboxStats } from './handler.js';

export { SANDBOX_KEYS } from './accounts.js';
export { FAULT_KINDS, type FaultKind, type FaultRule, parseFaultSpec } from './faults.js';
export { type SandboxOptions, type SandboxStats, UNKNOWN_PATHS } from './handler.js';

export interface Sandbox {
  /** Base URL, no trailing slash. */
  url: string;
  keys: readonly string[];
  close(): Promise<void>;
  faults: { add(rule: FaultRule): void; clear(): void };
  stats: SandboxStats;
}

/** Starts the sandbox on loopback and resolves once it listens. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const handler = new SandboxHandler(options);
  const server = createServer(handler.handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    keys: SANDBOX_KEYS,
    faults: { add: (rule) => handler.faults.add(rule), clear: () => handler.faults.clear() },
    stats: handler.stats,
    close: () =>
      new Promise<void>((resolve, reject) => {
        handler.close();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
