/**
 * `svc-mcp http`: the HTTP handler on a listening server, for teams. It refuses to listen beyond
 * loopback with no token and no sign-in; bounds connections (all, and per address) and the time
 * to send headers; prints a one-line banner. SIGTERM or SIGINT lets the calls in flight finish
 * (bounded) while answering new requests 503, then stops listening, flushes the ledger and exits 0.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import { type Config, ConfigError } from '../../config/index.js';
import { isLoopback } from '../../http/loopback.js';
import { listenProblem } from '../../messages.js';
import { createServices } from '../../services/index.js';
import { VERSION } from '../../version.js';
import { DRAIN_TIMEOUT_MS } from '../in-flight.js';
import { boundConnections } from './connections.js';
import { createHttpHandler, type HttpHandler } from './handler.js';

/** Time a client has to send a request's headers. */
const HEADERS_TIMEOUT_MS = 10_000;
/**
 * How often Node looks for connections past the header and request timeouts (30 s by default,
 * which let a slow sender hold its connection up to 40 s instead of 10).
 */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;
/** Connections open at once, idle keep-alive ones included. */
const MAX_CONNECTIONS = 1_024;

export interface HttpOptions {
  host: string;
  port: number;
}

/** The services HTTP serves: counted for /metrics, a log line per call, no ledger paths shown to callers. */
export const HTTP_SERVICES = { metrics: true, logLevel: 'info', showLocations: false } as const;

/** The HTTP server the handler answers on, bounded in connections and in the time to send headers. */
export function httpServer(handler: HttpHandler, config: Config): Server {
  const server = createHttpServer({ connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS }, handler.handle);
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = config.httpRequestTimeoutMs;
  boundConnections(server, { most: MAX_CONNECTIONS, perAddress: config.httpMaxConnectionsPerAddress });
  return server;
}

export async function serveHttp(config: Config, { host, port }: HttpOptions): Promise<void> {
  const none = (await import('../../inventory/unknown-tool.js')).noToolsError(config);
  if (none) throw new ConfigError(none);
  if (
    !isLoopback(host) &&
    config.httpToken === undefined &&
    config.oauthIssuer === undefined &&
    config.signIn === undefined
  ) {
    throw new ConfigError(
      `Refusing to listen on ${host} without SVC_HTTP_TOKEN: anyone who can reach the port could call the service on your credits. Set SVC_HTTP_TOKEN (for example to the output of \`openssl rand -hex 32\`) and give it to your clients, or listen on 127.0.0.1.`,
    );
  }
  const services = await createServices(config, HTTP_SERVICES);
  const handler = await createHttpHandler(services, config, { host });
  const server = httpServer(handler, config);
  await listen(server, host, port);

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    // Still listening while the calls in flight finish: a connection that arrives meanwhile gets
    // a 503 with Retry-After (a load balancer then tries another replica), not a reset.
    handler.stop();
    server.closeIdleConnections();
    await handler.drained(DRAIN_TIMEOUT_MS);
    server.close();
    server.closeAllConnections();
    await handler.close().catch(() => {});
    await services.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());

  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  const source = await services.source();
  source.client.warm();
  const { selectedTools } = await import('../../inventory/listed.js');
  const count = selectedTools(config).length;
  const where = `http://${host.includes(':') ? `[${host}]` : host}:${bound}/mcp`;
  process.stderr.write(
    `svc-mcp ${VERSION} on ${where} · data: ${source.label} · ${count} tools · ${handler.access}\n`,
  );
  services.announce();
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const why = listenProblem(error, host, port) ?? error.message;
      reject(new ConfigError(`Cannot listen on ${host}:${port}: ${why}.`));
    });
    server.listen(port, host, () => resolve());
  });
}
