/**
 * The embedded sandbox's thread: the sandbox builds large answers (5,000-asset listings, 10,000-point
 * histories) with real CPU work, which on the server's own thread would starve every other call and
 * even `ping`. Here it runs beside the server, on loopback, started and stopped by messages.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type SandboxOptions, startSandbox } from './server.js';

const port = parentPort;
if (!port) throw new Error('sandbox/worker.js runs as a worker thread');

try {
  const sandbox = await startSandbox(workerData as SandboxOptions);
  port.on('message', (message) => {
    if (message === 'close') void sandbox.close().finally(() => port.close());
  });
  port.postMessage({ url: sandbox.url });
} catch (error) {
  port.postMessage({ error: (error as Error).message });
}
