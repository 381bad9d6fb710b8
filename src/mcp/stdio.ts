/**
 * The MCP server on stdio: a one-line banner on stderr, protocol only on stdout. It speaks both the
 * 2025 revisions (`initialize`) and 2026-07-28 (the SDK's serveStdio settles which per connection).
 * When stdin ends it finishes the requests still in flight (bounded), flushes stdout and exits 0;
 * when the transport closes for any other reason it exits too, never lingering alive and deaf.
 */

import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Config } from '../config/index.js';
import { requireOwnKey } from '../config/own-key.js';
import { afterStartup } from '../heap.js';
import { noToolsMessage } from '../kit/toolsets.js';
import type { Services } from '../services/index.js';
import { VERSION } from '../version.js';
import { Connection, type ConnectionHooks } from './connection.js';
import { DRAIN_TIMEOUT_MS } from './in-flight.js';
import { JsonLinesTransport } from './json-lines.js';
import { listingFor } from './listing.js';
import { baseOf, createServer, prepareServer, rawCallRefusal, type ServerBase } from './server.js';
import { ShortFirstOutput } from './short-first-output.js';

/**
 * One connection's server over `wire`, as stdio serves it: the protocol revision settled by its
 * first message, and what svc-mcp adds to the wire (connection.ts): calls the SDK must not read as
 * they are refused, the requests in flight tracked so that they can finish before the process exits.
 */
export function serveConnection(
  over: Services | ServerBase,
  wire: Transport,
  hooks: Omit<ConnectionHooks, 'refuse'> = {},
) {
  const base = 'services' in over ? over : baseOf(over);
  const transport = new Connection(wire, { ...hooks, refuse: (problem) => rawCallRefusal(base, problem) });
  const handle = serveStdio(({ era }) => createServer(base, { era }), { transport });
  return { close: () => handle.close(), inFlight: transport.inFlight };
}

export async function runStdio(config: Config): Promise<void> {
  requireOwnKey(config, 'on stdio');
  const listing = listingFor(config);
  if (listing.names.size === 0) {
    process.stderr.write(`svc-mcp: ${noToolsMessage(config)}\n`);
    process.exit(2);
  }
  // The services (ledger, cache, data source) and the call path load once the tool list is out.
  let loading: Promise<Services> | undefined;
  const services = () => {
    loading ??= import('../services/index.js')
      .then(async ({ createServices }) => {
        const built = await createServices(config);
        void warmUp(built);
        return built;
      })
      .catch((error: unknown) => {
        // As a failure before start-up would be: one line, and the process ends (exit 2).
        process.stderr.write(`svc-mcp: ${(error as Error)?.message ?? String(error)}\n`);
        process.exit(2);
      });
    return loading;
  };
  const output = new ShortFirstOutput(process.stdout);
  const data = config.baseUrl === undefined ? 'sandbox (embedded)' : new URL(config.baseUrl).host;
  process.stderr.write(`svc-mcp ${VERSION} on stdio · data: ${data} · ${listing.names.size} tools\n`);
  // `initialize` and the tool list are answered from the generated listing; the rest loads once they
  // are out, ready for the first call.
  const { close, inFlight } = serveConnection(
    { config, services },
    new JsonLinesTransport(process.stdin, output),
    { sent: whenListed(() => void services()), closed: () => void shutdown(false) },
  );
  let closing = false;
  const shutdown = async (drain: boolean) => {
    if (closing) return;
    closing = true;
    if (drain) await inFlight.drained(DRAIN_TIMEOUT_MS);
    await output.flushed();
    await close().catch(() => {});
    if (loading) await (await loading).close();
    process.exit(0);
  };
  process.stdin.once('end', () => void shutdown(true));
  process.once('SIGINT', () => void shutdown(true));
  process.once('SIGTERM', () => void shutdown(true));
}

/** The call path loads this long after the tool list is answered, or after the first answer at the latest. */
const AFTER_LIST_MS = 25;
const AFTER_FIRST_MS = 1_000;

/**
 * A listener of the messages sent that calls `then` once, when the tool list has been answered (a
 * host asks for it right after `initialize`, and waits for it before anything else), or a second
 * after the first answer when no list was asked for. A first call does not wait for this: it loads
 * the call path itself.
 */
function whenListed(then: () => void): (message: JSONRPCMessage) => void {
  let timer: NodeJS.Timeout | undefined;
  let done = false;
  const soon = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      done = true;
      then();
    }, ms);
  };
  return (message) => {
    if (done) return;
    const result = 'result' in message ? (message.result as Record<string, unknown>) : undefined;
    if (result && Array.isArray(result.tools)) soon(AFTER_LIST_MS);
    else if ('id' in message && timer === undefined) soon(AFTER_FIRST_MS);
  };
}

/** The call path loaded, and the data source started and its connection opened. */
async function warmUp(services: Services): Promise<void> {
  prepareServer(services);
  const source = await services.source();
  source.client.warm();
  services.announce();
  afterStartup();
}
