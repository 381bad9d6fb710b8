/**
 * Who may use `svc-mcp http`, checked on the real server with raw requests: Host and Origin (DNS
 * rebinding), the bearer token, the routes and methods, the body limit, and a token beyond
 * loopback (the command's refusals at start-up: test/cli/errors.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorMessage, INITIALIZE, MCP_HEADERS, postMcp, rawRequest } from '../helpers/http.js';
import { startHttpServer } from '../helpers/in-process.js';
import { connectHttp, type HttpServer } from '../helpers/session.js';

const TOKEN = 'test-token-3f9a7c1e5b2d4086';

describe('on loopback with no token', () => {
  let server: HttpServer;
  beforeAll(async () => {
    server = await startHttpServer({ SVC_HTTP_ALLOWED_ORIGINS: 'https://app.example.com' });
  });
  afterAll(() => server?.stop());

  it('answers initialize addressed to a loopback name, whatever the port', async () => {
    const port = new URL(server.url).port;
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      'localhost',
      '127.0.0.2',
      'app.localhost',
    ]) {
      const response = await postMcp(server.url, INITIALIZE, { host });
      expect(response.status, host).toBe(200);
      expect(response.text, host).toContain('"protocolVersion"');
    }
  });

  it('refuses a request addressed to another name (DNS rebinding) with 403 naming the setting', async () => {
    const response = await postMcp(server.url, INITIALIZE, { host: 'evil.example.com' });
    expect(response.status).toBe(403);
    expect(errorMessage(response)).toMatch(
      /Host "evil\.example\.com" is not allowed: this server answers requests addressed to loopback \(localhost, 127\.0\.0\.0\/8, \[::1\]\).*SVC_HTTP_ALLOWED_HOSTS/,
    );
  });

  it('refuses a page from another origin; loopback pages and SVC_HTTP_ALLOWED_ORIGINS pass, with CORS', async () => {
    const evil = await postMcp(server.url, INITIALIZE, { origin: 'http://evil.example.com' });
    expect(evil.status).toBe(403);
    expect(errorMessage(evil)).toMatch(
      /Origin "http:\/\/evil\.example\.com" is not allowed.*SVC_HTTP_ALLOWED_ORIGINS/,
    );
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1', 'https://app.example.com']) {
      const response = await postMcp(server.url, INITIALIZE, { origin });
      expect(response.status, origin).toBe(200);
      expect(response.headers['access-control-allow-origin'], origin).toBe(origin);
    }
    const preflight = await rawRequest(server.url, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toBe('POST');
  });

  it('404 for other paths, 405 for other methods, each with an Allow header', async () => {
    const missing = await rawRequest(`${server.origin}/sse`, { method: 'GET' });
    expect(missing.status).toBe(404);
    expect(errorMessage(missing)).toMatch(/the MCP endpoint is \/mcp/);
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const response = await rawRequest(server.url, { method });
      expect(response.status, method).toBe(405);
      expect(response.headers.allow, method).toBe('POST, OPTIONS');
    }
    const health = await rawRequest(`${server.origin}/healthz`, { method: 'POST' });
    expect(health.status).toBe(405);
    expect(health.headers.allow).toBe('GET, HEAD');
  });

  it('413 for a body over 256 KiB, announced or streamed, and the server goes on answering', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
      params: { pad: 'x'.repeat(300_000) },
    });
    const announced = await rawRequest(server.url, { headers: MCP_HEADERS, body: big });
    expect(announced.status).toBe(413);
    expect(errorMessage(announced)).toMatch(/over the limit of 262144 bytes/);
    const streamed = await rawRequest(server.url, { headers: MCP_HEADERS, body: big, chunked: true });
    expect(streamed.status).toBe(413);
    expect((await postMcp(server.url, INITIALIZE)).status).toBe(200);
  });

  it('/healthz and /readyz answer with no token and any Host (load balancers probe by address)', async () => {
    const health = await rawRequest(`${server.origin}/healthz`, {
      method: 'GET',
      headers: { host: '10.0.0.7' },
    });
    expect(health.status).toBe(200);
    expect(JSON.parse(health.text)).toEqual({ status: 'ok' });
    const ready = await rawRequest(`${server.origin}/readyz`, { method: 'GET' });
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.text)).toEqual({ status: 'ready', checks: { upstream: 'ok', ledger: 'ok' } });
    const metrics = await rawRequest(`${server.origin}/metrics`, { method: 'GET' });
    expect(metrics.status).toBe(200);
    expect(metrics.headers['content-type']).toMatch(/^text\/plain/);
  });
});

describe('with SVC_HTTP_TOKEN', () => {
  let server: HttpServer;
  beforeAll(async () => {
    server = await startHttpServer({ SVC_HTTP_TOKEN: TOKEN });
  });
  afterAll(() => server?.stop());

  it('401 without a token, saying how to send one', async () => {
    const response = await postMcp(server.url, INITIALIZE);
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer realm="svc-mcp"');
    expect(errorMessage(response)).toMatch(/requires a bearer token: send "Authorization: Bearer <token>"/);
  });

  it('401 with a wrong token, or the right one in the wrong scheme', async () => {
    for (const authorization of [`Bearer ${TOKEN}x`, 'Bearer short', `Basic ${TOKEN}`, TOKEN]) {
      const response = await postMcp(server.url, INITIALIZE, { authorization });
      expect(response.status, authorization).toBe(401);
    }
    const wrong = await postMcp(server.url, INITIALIZE, { authorization: `Bearer ${TOKEN.toUpperCase()}` });
    expect(wrong.headers['www-authenticate']).toMatch(/error="invalid_token"/);
    expect(errorMessage(wrong)).toMatch(/The bearer token is wrong/);
  });

  it('both clients connect and call with the right token', async () => {
    for (const client of ['sdk1', 'v2'] as const) {
      const session = await connectHttp(server, client, { authorization: `Bearer ${TOKEN}` });
      const result = await session.call('get_fear_and_greed_latest');
      expect(result.isError, client).toBeFalsy();
      await session.close();
    }
  });

  it('/metrics needs the token; /healthz does not', async () => {
    expect((await rawRequest(`${server.origin}/metrics`, { method: 'GET' })).status).toBe(401);
    const metrics = await rawRequest(`${server.origin}/metrics`, {
      method: 'GET',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(metrics.status).toBe(200);
    expect((await rawRequest(`${server.origin}/healthz`, { method: 'GET' })).status).toBe(200);
  });
});

describe('beyond loopback', () => {
  it('with a token it listens; SVC_HTTP_ALLOWED_HOSTS limits the names it answers to', async () => {
    const server = await startHttpServer(
      { SVC_HTTP_TOKEN: TOKEN, SVC_HTTP_ALLOWED_HOSTS: 'mcp.example.com' },
      { host: '0.0.0.0' },
    );
    try {
      const url = server.url.replace('0.0.0.0', '127.0.0.1');
      const auth = { authorization: `Bearer ${TOKEN}` };
      expect((await postMcp(url, INITIALIZE, { ...auth, host: 'mcp.example.com:443' })).status).toBe(200);
      expect((await postMcp(url, INITIALIZE, { ...auth, host: 'other.example.com' })).status).toBe(403);
      expect((await postMcp(url, INITIALIZE, { host: 'mcp.example.com' })).status).toBe(401);
    } finally {
      await server.stop();
    }
  });
});
