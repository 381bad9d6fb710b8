/**
 * The MCP server over Streamable HTTP, for teams: `/mcp` (stateless, both protocol revisions, a
 * fresh server object per request over the services this process builds once), `/healthz`,
 * `/readyz` and `/metrics`. Safe by default: loopback only unless a token is set; Host, Origin and
 * token checked before a byte of the body is read; bounded in body size, time and requests at once.
 * SIGTERM or SIGINT lets the calls in flight finish (bounded) while answering new requests 503,
 * then stops listening, flushes the ledger and exits 0. Hostile traffic is bounded too: slow
 * senders by the header timeout and a cap on connections per address, bodies by http-body.ts.
 */

import {
  createServer as createHttpServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { type AuthInfo, createMcpHandler } from '@modelcontextprotocol/server';
import { createServices } from '../call/services.js';
import { type Config, ConfigError } from '../config/index.js';
import { personOf } from '../guard/accounts.js';
import { clip, listenProblem } from '../messages.js';
import { VERSION } from '../version.js';
import { operationalRoutes, sendJson } from './health.js';
import {
  accessRules,
  callerKey,
  checkHost,
  checkOrigin,
  checkToken,
  type HttpRefusal,
  isLoopback,
} from './http-access.js';
import { bodyRefusal, MAX_REQUEST_BYTES, readBody, revisionRefusal } from './http-body.js';
import { boundConnections } from './http-connections.js';
import { DRAIN_TIMEOUT_MS, InFlight } from './in-flight.js';
import { rawCallProblem } from './raw-call.js';
import { createServer, prepareServer, rawCallRefusal } from './server.js';

/** Time a client has to send a request's headers. */
const HEADERS_TIMEOUT_MS = 10_000;
/**
 * How often Node looks for connections past the header and request timeouts (30 s by default,
 * which let a slow sender hold its connection up to 40 s instead of 10).
 */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;
/** Connections open at once, idle keep-alive ones included. */
const MAX_CONNECTIONS = 1_024;
/** What a busy server asks a client to wait before trying again, in seconds. */
const RETRY_AFTER_SECONDS = '1';

export interface HttpOptions {
  host: string;
  port: number;
}

export async function runHttp(config: Config, { host, port }: HttpOptions): Promise<void> {
  const none = (await import('../catalog/index.js')).noToolsError(config);
  if (none) throw new ConfigError(none);
  // Loaded only with sign-in on: the desktop bundle leaves its token library out.
  const signIn =
    config.oauthIssuer === undefined || config.oauthResource === undefined
      ? undefined
      : new (await import('./sign-in.js')).SignIn({
          issuer: config.oauthIssuer,
          resource: config.oauthResource,
          scopes: { tools: config.oauthScope, admin: config.oauthAdminScope },
        });
  if (!isLoopback(host) && config.httpToken === undefined && signIn === undefined) {
    throw new ConfigError(
      `Refusing to listen on ${host} without SVC_HTTP_TOKEN: anyone who can reach the port could call the service on your credits. Set SVC_HTTP_TOKEN (for example to the output of \`openssl rand -hex 32\`) and give it to your clients, or listen on 127.0.0.1.`,
    );
  }
  const services = await createServices(config, { metrics: true, logLevel: 'info', showLocations: false });
  prepareServer(services);
  const rules = accessRules(config, host);
  const routes = operationalRoutes(services);
  const mcp = createMcpHandler(
    ({ era, requestInfo, authInfo }) =>
      createServer(services, {
        era,
        apiKey: requestInfo?.headers.get(config.keyHeader) || undefined,
        person: authInfo?.extra?.person as string | undefined,
        admin: authInfo?.extra?.admin === true,
      }),
    { maxRequestBodySize: MAX_REQUEST_BYTES },
  );
  const serveMcp = toNodeHandler(mcp, { maxRequestBodySize: MAX_REQUEST_BYTES });

  const inFlight = new InFlight<ServerResponse>();
  /** MCP messages being answered: a batch counts each of its messages against the bound. */
  let messagesInFlight = 0;
  let closing = false;

  async function handleMcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === 'OPTIONS') return preflight(req, res);
    if (req.method !== 'POST') {
      return sendRefusal(res, {
        status: 405,
        message:
          'The MCP endpoint takes POST only: it is stateless, with no session stream to GET or session to DELETE.',
        headers: { allow: 'POST, OPTIONS' },
      });
    }
    const key = callerKey(rules, req.headers[rules.keyHeader]);
    const checked = await authorize(req);
    const refusal =
      (checked && 'status' in checked ? checked : undefined) ??
      ('status' in key ? key : undefined) ??
      admission();
    if (refusal) return sendRefusal(res, refusal);
    allowOrigin(req, res);
    closeWhenAsked(req, res);
    inFlight.add(res);
    let messages = 1;
    messagesInFlight += messages;
    res.once('close', () => {
      inFlight.delete(res);
      messagesInFlight -= messages;
    });
    const timer = setTimeout(() => {
      // A stream already under way is cut; either way the closed response cancels the call.
      if (res.headersSent) res.destroy();
      else
        sendRefusal(res, {
          status: 504,
          message: `The request did not finish within ${config.httpRequestTimeoutMs / 1000} s (SVC_HTTP_REQUEST_TIMEOUT_MS); the call was cancelled.`,
          headers: { connection: 'close' },
        });
    }, config.httpRequestTimeoutMs);
    res.once('close', () => clearTimeout(timer));
    const body = await readBody(req);
    if ('refusal' in body) return sendRefusal(res, body.refusal);
    if (!('parsed' in body)) {
      const error = { code: -32700, message: 'Parse error: the request body is not valid JSON.' };
      return sendJson(res, 400, { jsonrpc: '2.0', error, id: null });
    }
    // Node joins a repeated custom header into one string: never an array here.
    const version = req.headers['mcp-protocol-version'] as string | undefined;
    const invalid = bodyRefusal(body.parsed, version) ?? revisionRefusal(version, body.parsed);
    if (invalid) {
      services.log.warn({ status: invalid.status, error: invalid.message }, 'MCP request refused');
      return sendRefusal(res, invalid);
    }
    if (Array.isArray(body.parsed)) {
      const busy = tooBusy(body.parsed.length - 1);
      if (busy) return sendRefusal(res, busy);
      messagesInFlight += body.parsed.length - 1;
      messages = body.parsed.length;
    }
    const problem = rawCallProblem(body.parsed);
    if (problem) {
      const result = await rawCallRefusal(services, problem);
      return sendJson(res, 200, { jsonrpc: '2.0', id: problem.id, result });
    }
    // The handler answers its own failures (500); a write after the timeout's answer is dropped.
    await serveMcp(req, res, body.parsed).catch(() => {});
  }

  /** Whether the server can take one more MCP request now. */
  function admission(): HttpRefusal | undefined {
    return closing ? stopping() : tooBusy(1);
  }

  /** A refusal when `more` messages would take the server past SVC_HTTP_MAX_REQUESTS. */
  function tooBusy(more: number): HttpRefusal | undefined {
    if (messagesInFlight + more <= config.httpMaxRequests) return undefined;
    return {
      status: 503,
      message: `The server is answering ${config.httpMaxRequests} messages already (SVC_HTTP_MAX_REQUESTS; each message of a batch counts); retry in a moment.`,
      headers: { 'retry-after': RETRY_AFTER_SECONDS },
    };
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
    if (req.rawHeaders.filter((_, at) => at % 2 === 0 && /^host$/i.test(req.rawHeaders[at])).length > 1) {
      return sendRefusal(res, {
        status: 400,
        message: 'A request carries one Host header (HTTP/1.1); this one has several.',
      });
    }
    // Health checks come from load balancers by address and carry nothing: they say which part is
    // failing, and why only to a caller that passes the token check.
    if (path === '/healthz' || path === '/readyz') {
      if (!reading) return sendRefusal(res, methodNotAllowed('GET, HEAD'));
      if (path === '/healthz') return routes.healthz(res);
      if (closing) return sendRefusal(res, stopping());
      const checked = await authorize(req);
      return routes.readyz(res, !(checked && 'status' in checked));
    }
    if (signIn && (path === signIn.metadataPath || path === '/.well-known/oauth-protected-resource')) {
      if (!reading) return sendRefusal(res, methodNotAllowed('GET, HEAD'));
      const document = await signIn.metadataDocument().catch((error: Error) => error);
      if (document instanceof Error) {
        return sendRefusal(res, {
          status: 503,
          message: `The authorization server's metadata could not be read (${document.message}).`,
        });
      }
      return sendJson(res, 200, document, { 'access-control-allow-origin': '*' });
    }
    if (path !== '/mcp' && path !== '/metrics') {
      return sendRefusal(res, {
        status: 404,
        message: `Nothing at ${clip(path, 100)}: the MCP endpoint is /mcp; /healthz, /readyz and /metrics report on the server.`,
      });
    }
    const refusal = checkHost(rules, req.headers.host) ?? checkOrigin(rules, req.headers.origin);
    if (refusal) return sendRefusal(res, refusal);
    if (path === '/mcp') return handleMcp(req, res);
    if (!reading) return sendRefusal(res, methodNotAllowed('GET, HEAD'));
    const denied = await authorize(req);
    if (denied && 'status' in denied) return sendRefusal(res, denied);
    return routes.metrics(res);
  }

  /**
   * The shared token's check, or the signed-in person's (SVC_OAUTH_ISSUER): a refusal, or who the
   * caller is, carried to the MCP server as the request's auth info (the SDK passes it through).
   */
  async function authorize(req: IncomingMessage): Promise<HttpRefusal | undefined | { person: string }> {
    if (!signIn) return checkToken(rules, req.headers.authorization);
    const checked = await signIn.check(req.headers.authorization);
    if ('status' in checked) return checked;
    const person = personOf(checked.subject);
    (req as IncomingMessage & { auth?: AuthInfo }).auth = {
      token: '',
      clientId: person,
      scopes: checked.scopes,
      extra: { person, admin: checked.scopes.includes(config.oauthAdminScope) },
    };
    return { person };
  }

  const server = createHttpServer({ connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS }, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      process.stderr.write(`svc-mcp: request failed: ${(error as Error)?.message ?? error}\n`);
      if (!res.headersSent) sendRefusal(res, { status: 500, message: 'The server failed while answering.' });
      else res.destroy();
    });
  });
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = config.httpRequestTimeoutMs;
  boundConnections(server, { most: MAX_CONNECTIONS, perAddress: config.httpMaxConnectionsPerAddress });
  await listen(server, host, port);

  const shutdown = async () => {
    if (closing) return;
    closing = true;
    // Still listening while the calls in flight finish: a connection that arrives meanwhile gets
    // a 503 with Retry-After (a load balancer then tries another replica), not a reset.
    server.closeIdleConnections();
    await inFlight.drained(DRAIN_TIMEOUT_MS);
    server.close();
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

function stopping(): HttpRefusal {
  return {
    status: 503,
    message: 'The server is shutting down; retry in a moment (or on another replica).',
    headers: { 'retry-after': RETRY_AFTER_SECONDS, connection: 'close' },
  };
}

/**
 * A client that asks to close its connection (`Connection: close`) has it closed once answered: the
 * SDK's answers name `keep-alive`, which would otherwise hold the socket open until it times out.
 */
function closeWhenAsked(req: IncomingMessage, res: ServerResponse): void {
  if (!/(^|,)\s*close\s*(,|$)/i.test(req.headers.connection ?? '')) return;
  const writeHead = res.writeHead.bind(res) as (
    status: number,
    headers?: OutgoingHttpHeaders,
  ) => ServerResponse;
  res.writeHead = ((status: number, headers?: OutgoingHttpHeaders) =>
    writeHead(status, { ...headers, connection: 'close' })) as ServerResponse['writeHead'];
}

function methodNotAllowed(allow: string): HttpRefusal {
  return { status: 405, message: `This route takes ${allow} only.`, headers: { allow } };
}

/** A refusal as a JSON-RPC error, with the request's id where it was read, and its HTTP status. */
function sendRefusal(res: ServerResponse, refusal: HttpRefusal): void {
  const { status, message, code = -32000, data, id = null, headers } = refusal;
  const error = data === undefined ? { code, message } : { code, message, data };
  sendJson(res, status, { jsonrpc: '2.0', error, id }, headers);
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
