/**
 * Where the data comes from: the upstream service when a key is configured, otherwise the sandbox
 * started in-process on a free loopback port (the embedded default).
 */
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { Config } from '../config.js';
import type { SandboxOptions } from '../sandbox/server.js';
import { timeBudget } from '../time-budget.js';
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
  const { attemptMs, requestsMs, maxAttempts } = timeBudget(config.timeoutMs);
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
  const sandbox = await startSandboxThread({
    keyHeader: config.keyHeader,
    rateLimit: false,
    now: config.now,
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

/** The embedded sandbox's own heap may grow this far (its answers are built in memory). */
const SANDBOX_HEAP_MB = 96;
/** How long the sandbox thread may take to close before it is stopped. */
const SANDBOX_CLOSE_MS = 2_000;

/**
 * The sandbox on a thread of its own (sandbox/worker.ts), so that its work never holds up the
 * server's; no per-minute limit, as it stands in for the service on one person's machine.
 */
async function startSandboxThread(options: SandboxOptions): Promise<{ url: string; close(): Promise<void> }> {
  const worker = new Worker(new URL('../sandbox/worker.js', import.meta.url), {
    workerData: options,
    resourceLimits: { maxOldGenerationSizeMb: SANDBOX_HEAP_MB, maxYoungGenerationSizeMb: 8 },
  });
  const [message] = (await Promise.race([
    once(worker, 'message'),
    once(worker, 'error').then(([e]) => Promise.reject(e)),
  ])) as [{ url?: string; error?: string }];
  if (!message.url) {
    await worker.terminate();
    throw new Error(`The embedded sandbox could not start: ${message.error}`);
  }
  // The thread must not keep the process alive once the server is done.
  worker.unref();
  return {
    url: message.url,
    async close() {
      const exited = once(worker, 'exit');
      worker.postMessage('close');
      const timer = setTimeout(() => void worker.terminate(), SANDBOX_CLOSE_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}
