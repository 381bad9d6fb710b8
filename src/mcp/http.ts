/**
 * The MCP server over Streamable HTTP, for teams: `/mcp` (stateless, both protocol revisions, a
 * fresh server object per request over the services this process builds once), `/healthz`,
 * `/readyz` and `/metrics`. Safe by default: loopback only unless a token is set; Host, Origin and
 * token checked before a byte of the body is read; bounded in body size, time and requests at once.
 * SIGTERM or SIGINT stops accepting, lets the calls in flight finish (bounded), flushes the ledger
 * and exits 0.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { createServices } from '../call/services.js';
import { type Config, ConfigError } from '../config.js';
import { VERSION } from '../version.js';
import { operationalRoutes, sendJson } from './health.js';
import {
  accessRules,
  callerKey,
  checkHost,
  checkOrigin,
  checkToken,
  isLoopback,
  type Refusal,
} from './http-access.js';
import { DRAIN_TIMEOUT_MS, InFlight } from './in-flight.js';
import { protoKeyCall } from './proto-key.js';
import { createServer, protoKeyRefusal } from './server.js';

/** Largest request body: a tool call's arguments are a few hundred bytes. */
export const MAX_BODY_BYTES = 256 * 1024;
/** Time a client has to send a request's headers. */
const HEADERS_TIMEOUT_MS = 10_000;
/** Connections open at once, idle keep-alive ones included. */
const MAX_CONNECTIONS = 1_024;
/** What a busy server asks a client to wait before trying again, in seconds. */
const RETRY_AFTER_SECONDS = '1';

export interface HttpOptions {
  host: string;
  port: number;
}

export async function runHttp(config: Config, { host, port }: HttpOptions): Promise<void> {
  const none = (await import('./tools.js')).noToolsError(config);
  if (none) throw new ConfigError(none);
  if (!isLoopback(host) && config.httpToken === undefined) {
    throw new ConfigError(
      `Refusing to listen on ${host} without SVC_HTTP_TOKEN: anyone who can reach the port could call the service on your credits. Set SVC_HTTP_TOKEN (for example to the output of \`openssl rand -hex 32\`) and give it to your clients, or listen on 127.0.0.1.`,
    );
  }
  const services = await createServices(config, { metrics: true, logLevel: 'info' });
  const rules = accessRules(config, host);
  const routes = operationalRoutes(services);
  const mcp = createMcpHandler(
    ({ era, requestInfo }) =>
      createServer(services, { era, apiKey: requestInfo?.headers.get(config.keyHeader) || undefined }),
    { maxRequestBodySize: MAX_BODY_BYTES },
  );
  const serveMcp = toNodeHandler(mcp, { maxRequestBodySize: MAX_BODY_BYTES });

  const inFlight = new InFlight<ServerResponse>();
  let closing = false;

  async function handleMcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === 'OPTIONS') return preflight(req, res);
    if (req.method !== 'POST') {
      return refuse(res, {
        status: 405,
        message:
          'The MCP endpoint takes POST only: it is stateless, with no session stream to GET or session to DELETE.',
        headers: { allow: 'POST, OPTIONS' },
      });
    }
    const key = callerKey(rules, req.headers[rules.keyHeader]);
    const refusal =
      checkToken(rules, req.headers.authorization) ?? ('status' in key ? key : undefined) ?? admission(req);
    if (refusal) return refuse(res, refusal);
    allowOrigin(req, res);
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
    const timer = setTimeout(() => {
      // A stream already under way is cut; either way the closed response cancels the call.
      if (res.headersSent) res.destroy();
      else
        refuse(res, {
          status: 504,
          message: `The request did not finish within ${config.httpRequestTimeoutMs / 1000} s (SVC_HTTP_REQUEST_TIMEOUT_MS); the call was cancelled.`,
          headers: { connection: 'close' },
        });
    }, config.httpRequestTimeoutMs);
    res.once('close', () => clearTimeout(timer));
    const body = await readBody(req);
    if ('refusal' in body) return refuse(res, body.refusal);
    if (!('parsed' in body)) {
      const error = { code: -32700, message: 'Parse error: the request body is not valid JSON.' };
      return sendJson(res, 400, { jsonrpc: '2.0', error, id: null });
    }
    const tainted = protoKeyCall(body.parsed);
    if (tainted) {
      const result = await protoKeyRefusal(services, tainted.name);
      return sendJson(res, 200, { jsonrpc: '2.0', id: tainted.id, result });
    }
    // The handler answers its own failures (500); a write after the timeout's answer is dropped.
    await serveMcp(req, res, body.parsed).catch(() => {});
  }

  /** Whether the server can take one more MCP request now. */
  function admission(req: IncomingMessage): Refusal | undefined {
    if (closing) {
      return {
        status: 503,
        message: 'The server is shutting down; retry in a moment (or on another replica).',
        headers: { 'retry-after': RETRY_AFTER_SECONDS, connection: 'close' },
      };
    }
    if (inFlight.size >= config.httpMaxRequests) {
      return {
        status: 503,
        message: `The server is answering ${config.httpMaxRequests} requests already (SVC_HTTP_MAX_REQUESTS); retry in a moment.`,
        headers: { 'retry-after': RETRY_AFTER_SECONDS },
      };
    }
    if (Number(req.headers['content-length']) > MAX_BODY_BYTES) {
      return {
        status: 413,
        message: `The request body is over the limit of ${MAX_BODY_BYTES} bytes.`,
        headers: { connection: 'close' },
      };
    }
    return undefined;
  }

  /** A browser's CORS preflight, from a page whose Origin passed the check. */
  function preflight(req: IncomingMessage, res: ServerResponse): void {
    allowOrigin(req, res);
    const requested = req.headers['access-control-request-headers'];
    res.writeHead(204, {
      allow: 'POST, OPTIONS',
      'access-control-allow-methods': 'POST',
      ...(typeof requested === 'string' && /^[\w, -]{1,1000}$/.test(requested)
        ? { 'access-control-allow-headers': requested }
        : {}),
      'access-control-max-age': '600',
    });
    res.end();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    const method = req.method ?? 'GET';
    const reading = method === 'GET' || method === 'HEAD';
    // A keep-alive connection opened before the stop would otherwise carry requests until the
    // calls in flight are done: each answer now ends its connection, and new ones are refused.
    if (closing) res.setHeader('connection', 'close');
    // Health checks come from load balancers by address, carry nothing and reveal nothing.
    if (path === '/healthz' || path === '/readyz') {
      if (!reading) return refuse(res, methodNotAllowed('GET, HEAD'));
      return path === '/healthz' ? routes.healthz(res) : routes.readyz(res);
    }
    if (path !== '/mcp' && path !== '/metrics') {
      return refuse(res, {
        status: 404,
        message: `Nothing at ${path.slice(0, 100)}: the MCP endpoint is /mcp; /healthz, /readyz and /metrics report on the server.`,
      });
    }
    const refusal = checkHost(rules, req.headers.host) ?? checkOrigin(rules, req.headers.origin);
    if (refusal) return refuse(res, refusal);
    if (path === '/mcp') return handleMcp(req, res);
    if (!reading) return refuse(res, methodNotAllowed('GET, HEAD'));
    const denied = checkToken(rules, req.headers.authorization);
    if (denied) return refuse(res, denied);
    return routes.metrics(res);
  }

  const server = createHttpServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      process.stderr.write(`svc-mcp: request failed: ${(error as Error)?.message ?? error}\n`);
      if (!res.headersSent) refuse(res, { status: 500, message: 'The server failed while answering.' });
      else res.destroy();
    });
  });
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = config.httpRequestTimeoutMs;
  server.maxConnections = MAX_CONNECTIONS;
  await listen(server, host, port);

  const shutdown = async () => {
    if (closing) return;
    closing = true;
    server.close();
    server.closeIdleConnections();
    await inFlight.drained(DRAIN_TIMEOUT_MS);
    server.closeAllConnections();
    await mcp.close().catch(() => {});
    await services.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());

  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  const source = await services.source();
  source.client.warm();
  const { exposedTools } = await import('./tools.js');
  const count = exposedTools(config).tools.size;
  const where = `http://${host.includes(':') ? `[${host}]` : host}:${bound}/mcp`;
  const access = rules.tokenHash ? 'bearer token required' : 'no token (loopback only)';
  process.stderr.write(
    `svc-mcp ${VERSION} on ${where} · data: ${source.label} · ${count} tools · ${access}\n`,
  );

  /** CORS for a page whose Origin passed the check (loopback or SVC_HTTP_ALLOWED_ORIGINS). */
  function allowOrigin(req: IncomingMessage, res: ServerResponse): void {
    const origin = req.headers.origin;
    if (origin === undefined) return;
    res.setHeader('access-control-allow-origin', origin);
    res.setHeader('vary', 'Origin');
  }
}

function methodNotAllowed(allow: string): Refusal {
  return { status: 405, message: `This route takes ${allow} only.`, headers: { allow } };
}

/**
 * The request body, read here (within the size bound) rather than by the SDK, so that a tools/call
 * whose arguments hold `__proto__` can be seen before the SDK's parsing drops that key.
 */
async function readBody(
  req: IncomingMessage,
): Promise<{ parsed: unknown } | { refusal: Refusal } | { invalid: true }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      return {
        refusal: {
          status: 413,
          message: `The request body is over the limit of ${MAX_BODY_BYTES} bytes.`,
          headers: { connection: 'close' },
        },
      };
    }
    chunks.push(chunk);
  }
  try {
    return { parsed: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    return { invalid: true };
  }
}

/** A refusal as a JSON-RPC error with no id (the request was not read), with its HTTP status. */
function refuse(res: ServerResponse, { status, message, headers }: Refusal): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code: -32000, message }, id: null }, headers);
}

function listen(server: ReturnType<typeof createHttpServer>, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const why =
        error.code === 'EADDRINUSE'
          ? `port ${port} is in use; choose another with --port`
          : error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND'
            ? `${host} is not an address of this machine`
            : error.code === 'EACCES'
              ? `listening on port ${port} needs more privileges; choose a port above 1023`
              : error.message;
      reject(new ConfigError(`Cannot listen on ${host}:${port}: ${why}.`));
    });
    server.listen(port, host, () => resolve());
  });
}
