/**
 * Where the data comes from: the upstream service when a key is configured, otherwise the sandbox
 * started in-process on a free loopback port (the embedded default).
 */
import { join } from 'node:path';
import type { Config } from '../config/index.js';
import { timeBounds } from '../time-bounds.js';
import { UpstreamClient } from '../upstream/client.js';

/** The key the embedded sandbox is called with (an Enterprise key: every endpoint, deepest history). */
const EMBEDDED_SANDBOX_KEY = 'sandbox-enterprise';

export interface DataSource {
  client: UpstreamClient;
  /** The key calls are sent with unless a caller brings its own. */
  apiKey: string | undefined;
  /** True when answers are built from sandbox data, which every answer then says. */
  sandbox: boolean;
  /** For the banner: "sandbox (http://127.0.0.1:40123)" or the upstream host. */
  label: string;
  close(): Promise<void>;
}

export async function openDataSource(config: Config): Promise<DataSource> {
  const { keyHeader } = config;
  const { attemptMs, requestsMs, maxAttempts } = timeBounds(config.timeoutMs);
  const clientFor = (baseUrl: string) =>
    new UpstreamClient({ baseUrl, keyHeader, attemptMs, requestsMs, maxAttempts });
  if (config.baseUrl !== undefined) {
    const client = clientFor(config.baseUrl);
    return {
      client,
      apiKey: config.apiKey,
      sandbox: false,
      label: new URL(config.baseUrl).host,
      close: () => client.close(),
    };
  }
  // On the server's own thread, on loopback: one V8 heap, not two (decision 003). A server with a
  // key never loads it.
  const { startSandbox } = await import('../sandbox/server.js');
  const sandbox = await startSandbox({
    keyHeader: config.keyHeader,
    rateLimit: false,
    now: config.now,
    // Its usage goes on across restarts, as the ledger beside it does: key info agrees with it.
    usageFile: join(config.stateDir, 'sandbox-usage.json'),
  });
  const client = clientFor(sandbox.url);
  return {
    client,
    apiKey: EMBEDDED_SANDBOX_KEY,
    sandbox: true,
    label: `sandbox (${sandbox.url})`,
    async close() {
      await client.close();
      await sandbox.close();
    },
  };
}
