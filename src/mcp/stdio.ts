/**
 * The MCP server on stdio: a one-line banner on stderr, protocol only on stdout. It speaks both the
 * 2025 revisions (`initialize`) and 2026-07-28 (the SDK's serveStdio settles which per connection).
 * When stdin ends it finishes the requests still in flight (bounded), flushes stdout and exits 0;
 * when the transport closes for any other reason it exits too, never lingering alive and deaf.
 */

import type { Transport } from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { createServices, type Services } from '../call/services.js';
import type { Config } from '../config/index.js';
import { requireOwnKey } from '../config/own-key.js';
import { afterStartup } from '../heap.js';
import { VERSION } from '../version.js';
import { DRAIN_TIMEOUT_MS, trackInFlight } from './in-flight.js';
import { JsonLines } from './json-lines.js';
import { refuseRawCalls } from './raw-call.js';
import { createServer, prepareServer, rawCallRefusal } from './server.js';
import { ShortFirstOutput } from './short-first-output.js';

/**
 * One connection's server over `transport`, as stdio serves it: the protocol revision settled by
 * its first message, calls the SDK must not read as they are refused (raw-call.ts), the requests in flight
 * tracked so that they can finish before the process exits.
 */
export function serveConnection(services: Services, transport: Transport) {
  const handle = serveStdio(({ era }) => createServer(services, { era }), { transport });
  const inFlight = trackInFlight(transport);
  refuseRawCalls(transport, (problem) => rawCallRefusal(services, problem));
  return { close: () => handle.close(), inFlight };
}

export async function runStdio(config: Config): Promise<void> {
  requireOwnKey(config, 'on stdio');
  const services = await createServices(config);
  prepareServer(services);
  const output = new ShortFirstOutput(process.stdout);
  // The SDK's transport aborts the requests in flight when its input ends. It reads a copy of
  // stdin instead, which ends only once those requests are answered; a line that is not JSON is
  // answered there with a parse error.
  const input = new JsonLines((message) => output.write(message));
  process.stdin.pipe(input, { end: false });
  const transport = new StdioServerTransport(input, output);
  const { close, inFlight } = serveConnection(services, transport);
  let closing = false;
  const shutdown = async (drain: boolean) => {
    if (closing) return;
    closing = true;
    if (drain) await inFlight.drained(DRAIN_TIMEOUT_MS);
    await output.flushed();
    await close().catch(() => {});
    await services.close();
    process.exit(0);
  };
  const closed = transport.onclose;
  transport.onclose = () => {
    closed?.();
    void shutdown(false);
  };
  process.stdin.once('end', () => void shutdown(true));
  process.once('SIGINT', () => void shutdown(true));
  process.once('SIGTERM', () => void shutdown(true));
  const source = await services.source();
  source.client.warm();
  const [{ exposedTools }, { noToolsError }] = await Promise.all([
    import('./tools.js'),
    import('../catalog/index.js'),
  ]);
  // Checked once the tool path is loaded (after `initialize`, to keep start-up fast): a host shows
  // this line in its log rather than a server that silently offers nothing.
  const none = noToolsError(config);
  if (none) {
    process.stderr.write(`svc-mcp: ${none}\n`);
    process.exit(2);
  }
  const count = exposedTools(config).tools.size;
  process.stderr.write(`svc-mcp ${VERSION} on stdio · data: ${source.label} · ${count} tools\n`);
  services.announce();
  afterStartup();
}
