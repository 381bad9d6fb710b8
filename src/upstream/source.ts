/**
 * Where the data comes from: the upstream service when a key is configured, otherwise the sandbox
 * started in-process on a free loopback port (the embedded default).
 */
import type { Config } from '../config.js';
import { UpstreamClient } from './client.js';

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
  if (config.baseUrl !== undefined) {
    const client = new UpstreamClient({ ...config, baseUrl: config.baseUrl });
    return {
      client,
      apiKey: config.apiKey,
      sandbox: false,
      label: new URL(config.baseUrl).host,
      close: () => client.close(),
    };
  }
  // Loaded only here, so a server with a key never pays for the sandbox's market model.
  const { startSandbox } = await import('../sandbox/server.js');
  // No per-minute limit here: it stands in for the service on one person's machine.
  const sandbox = await startSandbox({ keyHeader: config.keyHeader, rateLimit: false, now: config.now });
  const client = new UpstreamClient({ ...config, baseUrl: sandbox.url });
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
