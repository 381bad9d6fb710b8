/**
 * The HTTP transport as a request handler, composed of small checks: `/mcp` (stateless, both
 * protocol revisions, a fresh MCP server per request over the shared services), `/healthz`,
 * `/readyz`, `/metrics` and, with sign-in, the protected-resource metadata. Host, Origin and the
 * caller's token are checked before a byte of the body is read; then the body, within its bounds
 * of size and time; then admission (messages at once, a stop under way), the time limit and what
 * the SDK must not read as it is.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import type { Config } from '../../config/index.js';
import type { PersonLimit } from '../../guard/guard.js';
import { clip } from '../../messages.js';
import type { Services } from '../../services/index.js';
import type { OwnKey, OwnKeyOptions } from '../../sign-in/index.js';
import { rawCallProblem } from '../raw-call.js';
import { baseOf, createServer, prepareServer, rawCallRefusal } from '../server.js';
import { type AccessRules, accessRules, callerKey, checkHost, checkOperator, checkOrigin } from './access.js';
import { Admission, stoppingRefusal } from './admission.js';
import { authorizer, isRefusal, signInFor } from './auth.js';
import { bodyRefusal, MAX_REQUEST_BYTES, readBody, revisionRefusal } from './body.js';
import { requestDeadline } from './deadline.js';
import { operationalRoutes } from './health.js';
import {
  allowOrigin,
  closeWhenAsked,
  methodNotAllowed,
  preflight,
  sendJson,
  sendRefusal,
} from './respond.js';
import type { SignIn } from './sign-in.js';

export interface HttpHandler {
  /** Node's request listener; it answers its own failures (500). */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Refuse new MCP requests (503 with Retry-After) while those taken are answered. */
  stop(): void;
  /** Resolves once every MCP request taken is answered, or after `timeoutMs`. */
  drained(timeoutMs: number): Promise<void>;
  /** Ends the MCP handler's servers still open. */
  close(): Promise<void>;
  /** What callers must bring, for the banner: a bearer token, a signed-in person's, or nothing. */
  access: string;
}

/** The handler for services built for HTTP (createServices with metrics), listening on `host`. */
export async function createHttpHandler(
  services: Services,
  config: Config,
  { host, ownKey: ownKeyOptions }: { host: string; ownKey?: OwnKeyOptions },
): Promise<HttpHandler> {
  prepareServer(services);
  const base = baseOf(services);
  const signIn = await signInFor(config);
  const ownKey =
    config.signIn === 'own-key'
      ? await (await import('../../sign-in/load.js')).loadOwnKey(services, config, ownKeyOptions)
      : undefined;
  const rules = accessRules(config, host);
  const authorize = authorizer(rules, signIn, config.oauthAdminScope, ownKey);
  const admission = new Admission(config.httpMaxRequests);
  const mcp = createMcpHandler(
    ({ era, requestInfo, authInfo }) =>
      createServer(base, {
        era,
        apiKey: ownKey
          ? (authInfo?.extra?.apiKey as string | undefined)
          : requestInfo?.headers.get(config.keyHeader) || undefined,
        person: authInfo?.extra?.person as string | undefined,
        personLimit: authInfo?.extra?.personLimit as PersonLimit | undefined,
        admin: authInfo?.extra?.admin === true,
      }),
    { maxRequestBodySize: MAX_REQUEST_BYTES },
  );
  const answerMcp = mcpRoute({
    services,
    config,
    rules,
    authorize,
    admission,
    serve: toNodeHandler(mcp, { maxRequestBodySize: MAX_REQUEST_BYTES }),
  });
  const route = router({ services, rules, authorize, admission, signIn, ownKey, answerMcp });
  return {
    handle: (req, res) =>
      route(req, res).catch((error: unknown) => {
        process.stderr.write(`svc-mcp: request failed: ${(error as Error)?.message ?? error}\n`);
        if (!res.headersSent)
          sendRefusal(res, { status: 500, message: 'The server failed while answering.' });
        else res.destroy();
      }),
    stop: () => admission.stop(),
    drained: (timeoutMs) => admission.drained(timeoutMs),
    close: async () => {
      await mcp.close();
      await ownKey?.close();
    },
    access: ownKey
      ? 'own-key sign-in required'
      : signIn
        ? 'sign-in required'
        : rules.tokenHash
          ? 'bearer token required'
          : 'no token (loopback only)',
  };
}

type Route = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

interface Parts {
  services: Services;
  rules: AccessRules;
  authorize: ReturnType<typeof authorizer>;
  admission: Admission;
}

/** Which route a request takes, after the checks every route shares. */
function router({
  services,
  rules,
  authorize,
  admission,
  signIn,
  ownKey,
  answerMcp,
}: Parts & { signIn?: SignIn; ownKey?: OwnKey; answerMcp: Route }): Route {
  const routes = operationalRoutes(services);
  const operator = (req: IncomingMessage) =>
    checkOperator(rules, req.headers.authorization, async () => {
      const checked = await authorize(req);
      return isRefusal(checked) ? checked : undefined;
    });
  return async (req, res) => {
    const [path = '/'] = (req.url ?? '/').split('?');
    const reading = req.method === 'GET' || req.method === 'HEAD' || req.method === undefined;
    // A keep-alive connection opened before the stop would otherwise carry requests until the
    // calls in flight are done: each answer now ends its connection, and new ones are refused.
    if (admission.stopped) res.setHeader('connection', 'close');
    if (req.rawHeaders.filter((name, at) => at % 2 === 0 && /^host$/i.test(name)).length > 1) {
      return sendRefusal(res, {
        status: 400,
        message: 'A request carries one Host header (HTTP/1.1); this one has several.',
      });
    }
    // Health checks come from load balancers by address and carry nothing: they say which part is
    // failing, and why only to the operator.
    if (path === '/healthz' || path === '/readyz') {
      if (!reading) return sendRefusal(res, methodNotAllowed('GET, HEAD'));
      if (path === '/healthz') return routes.healthz(res);
      if (admission.stopped) return sendRefusal(res, stoppingRefusal());
      return routes.readyz(res, (await operator(req)) === undefined);
    }
    if (signIn && (path === signIn.metadataPath || path === '/.well-known/oauth-protected-resource')) {
      if (!reading) return sendRefusal(res, methodNotAllowed('GET, HEAD'));
      return metadata(res, signIn);
    }
    if (ownKey) {
      // The sign-in's pages and endpoints: the Host check as for /mcp (DNS rebinding); no Origin
      // check, since browsers post the key page from this server's own origin and clients call the
      // token endpoint from theirs (the sign-in server answers CORS there).
      const refusal = checkHost(rules, req.headers.host);
      if (refusal) return sendRefusal(res, refusal);
      if (await ownKey.route(req, res, path)) return;
    }
    if (path !== '/mcp' && path !== '/metrics') {
      return sendRefusal(res, {
        status: 404,
        message: `Nothing at ${clip(path, 100)}: the MCP endpoint is /mcp; /healthz, /readyz and /metrics report on the server.`,
      });
    }
    const refusal = checkHost(rules, req.headers.host) ?? checkOrigin(rules, req.headers.origin);
    if (refusal) return sendRefusal(res, refusal);
    if (path === '/mcp') return answerMcp(req, res);
    if (!reading) return sendRefusal(res, methodNotAllowed('GET, HEAD'));
    const denied = await operator(req);
    if (denied) return sendRefusal(res, denied);
    return routes.metrics(res);
  };
}

/** The protected-resource metadata (RFC 9728) that points a refused client at the authorization server. */
async function metadata(res: ServerResponse, signIn: SignIn): Promise<void> {
  const document = await signIn.metadataDocument().catch((error: Error) => error);
  if (document instanceof Error) {
    return sendRefusal(res, {
      status: 503,
      message: `The authorization server's metadata could not be read (${document.message}).`,
    });
  }
  sendJson(res, 200, document, { 'access-control-allow-origin': '*' });
}

/** `/mcp`: checked and admitted, its body read within bounds, then served by the SDK. */
function mcpRoute({
  services,
  config,
  rules,
  authorize,
  admission,
  serve,
}: Parts & { config: Config; serve: ReturnType<typeof toNodeHandler> }): Route {
  return async (req, res) => {
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
      (isRefusal(checked) ? checked : undefined) ??
      ('status' in key ? key : undefined) ??
      (admission.stopped ? stoppingRefusal() : undefined);
    if (refusal) return sendRefusal(res, refusal);
    allowOrigin(req, res);
    closeWhenAsked(req, res);
    // Read before it takes a place: a slow body holds its connection (within its time bound), and
    // no place among SVC_HTTP_MAX_REQUESTS.
    const body = await readBody(req);
    if ('refusal' in body) return sendRefusal(res, body.refusal);
    const busy = admission.refusal();
    if (busy) return sendRefusal(res, busy);
    const taken = admission.take(res);
    requestDeadline(res, config.httpRequestTimeoutMs);
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
    const batchBusy = Array.isArray(body.parsed) ? taken.batch(body.parsed.length) : undefined;
    if (batchBusy) return sendRefusal(res, batchBusy);
    const problem = rawCallProblem(body.parsed);
    if (problem) {
      const result = await rawCallRefusal(baseOf(services), problem);
      return sendJson(res, 200, { jsonrpc: '2.0', id: problem.id, result });
    }
    // The SDK answers its own failures (500); a write after the deadline's answer is dropped.
    await serve(req, res, body.parsed).catch(() => {});
  };
}
