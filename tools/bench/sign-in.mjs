#!/usr/bin/env node
// @ts-check
/**
 * What sign-in costs a call: a cached tool call over HTTP with a signed-in caller beside the same
 * call with the static SVC_HTTP_TOKEN, taken in turn so that the machine's load hits both alike;
 * p50 and p95 of each and the difference. Each kind of caller has a static-token server of its own
 * beside it, so that the two have answered as many calls (a server keeps getting faster over its
 * first thousands of calls, as V8 optimises more of its code). Two kinds of caller: one with an
 * outside issuer's RS256 JWT (checked against the issuer's cached keys; the issuer is played by
 * this script, its metadata and key set on loopback, tokens signed with jose), and one signed in to
 * the own-key connector (SVC_SIGN_IN=own-key; its opaque token looked up, or trusted a second once
 * checked), signed in by this script as a client would. `npm run build` first.
 *
 *   node tools/bench/sign-in.mjs [--calls 2000]
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { beside, cliArgs, freePort, percentile, ROOT } from './processes.mjs';
import { countOption, figure, saveResults } from './results.mjs';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '2000' } } });
const calls = countOption(values, 'calls', 100_000);
const TOKEN = 'a-static-token-for-the-benchmark';

const { privateKey, publicKey } = await generateKeyPair('RS256');
const jwk = { ...(await exportJWK(publicKey)), kid: 'bench', alg: 'RS256', use: 'sig' };
const issuerPort = await freePort();
const issuer = `http://127.0.0.1:${issuerPort}`;
const issuerServer = createServer((req, res) => {
  const body =
    req.url === '/.well-known/oauth-authorization-server'
      ? {
          issuer,
          jwks_uri: `${issuer}/jwks`,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          response_types_supported: ['code'],
        }
      : { keys: [jwk] };
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
});
await new Promise((resolve) => issuerServer.listen(issuerPort, '127.0.0.1', () => resolve(undefined)));

async function server(env) {
  const port = await freePort();
  const child = spawn(process.execPath, cliArgs('http', '--port', String(port)), {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env(port) },
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  for (
    const deadline = Date.now() + 10_000;
    !(await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    ));
  ) {
    if (Date.now() > deadline) throw new Error(`no /healthz at ${base}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { base, child };
}

const plain = () => server(() => ({ SVC_HTTP_TOKEN: TOKEN }));
const plainForSigned = await plain();
const plainForOwnKey = await plain();
const signed = await server((port) => ({
  SVC_OAUTH_ISSUER: issuer,
  SVC_OAUTH_RESOURCE: `http://127.0.0.1:${port}/mcp`,
}));
const jwt = await new SignJWT({ scope: 'mcp:tools' })
  .setProtectedHeader({ alg: 'RS256', kid: 'bench' })
  .setIssuer(issuer)
  .setAudience(`${signed.base}/mcp`)
  .setSubject('bench-person')
  .setExpirationTime('1h')
  .sign(privateKey);

/** One cached tools/call, the POST a 2025 client sends. */
const call = (base, bearer) => () =>
  fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${bearer}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_fear_and_greed_latest', arguments: {} },
    }),
  }).then(async (r) => {
    const text = await r.text();
    if (!r.ok || text.includes('"isError":true')) throw new Error(`${r.status} ${text.slice(0, 200)}`);
  });

/** Signs in to an own-key server as a client does (register, PKCE, the key page's two forms, the code): its access token. */
async function ownKeyToken(base, key) {
  const redirect = 'http://127.0.0.1:9/callback';
  const json = (r) => r.json();
  const { client_id } = await fetch(`${base}/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [redirect], token_endpoint_auth_method: 'none' }),
  }).then(json);
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const cookies = [];
  const send = async (path, init = {}) => {
    const r = await fetch(new URL(path, base), {
      ...init,
      redirect: 'manual',
      headers: { ...init.headers, cookie: cookies.join('; ') },
    });
    for (const c of r.headers.getSetCookie()) cookies.push(c.split(';')[0]);
    return { location: r.headers.get('location'), text: await r.text() };
  };
  const query = { client_id, response_type: 'code', redirect_uri: redirect, code_challenge: challenge };
  let step = await send(
    `/auth?${new URLSearchParams({ ...query, code_challenge_method: 'S256', scope: 'mcp' })}`,
  );
  const page = step.location;
  const post = (fields) =>
    send(page, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf: /name="csrf" value="([^"]+)"/.exec(step.text)[1], ...fields }),
    });
  step = await send(page);
  step = await post({ api_key: key, decision: 'allow' });
  step = await post({ decision: 'allow' });
  while (!step.location.startsWith(redirect)) step = await send(step.location);
  const code = new URL(step.location).searchParams.get('code');
  const tokens = await fetch(`${base}/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirect,
      client_id,
      code_verifier: verifier,
    }),
  }).then(json);
  return tokens.access_token;
}

const ownKey = await server((port) => ({
  SVC_SIGN_IN: 'own-key',
  SVC_OAUTH_RESOURCE: `http://127.0.0.1:${port}/mcp`,
  SVC_STATE_DIR: mkdtempSync(join(tmpdir(), 'svc-mcp-bench-')),
}));
const connectorToken = await ownKeyToken(ownKey.base, 'sandbox-startup');

const p = (list, q) => percentile(list, q).toFixed(3);
const added = [];
for (const [label, base, bearer, staticServer] of [
  ['signed-in caller (outside issuer)', signed.base, jwt, plainForSigned],
  ['connector caller (own key)', ownKey.base, connectorToken, plainForOwnKey],
]) {
  const samples = await beside(call(base, bearer), call(staticServer.base, TOKEN), { warmup: 200, calls });
  const more = percentile(samples.call, 50) - percentile(samples.direct, 50);
  console.log(
    `${label}: p50 ${p(samples.call, 50)} ms, p95 ${p(samples.call, 95)} ms (${calls} cached calls)`,
  );
  console.log(`static token beside it: p50 ${p(samples.direct, 50)} ms, p95 ${p(samples.direct, 95)} ms`);
  console.log(`adds at p50: ${more.toFixed(3)} ms`);
  added.push(more);
}
saveResults('sign-in', 'node tools/bench/sign-in.mjs', [
  figure('a cached call by a signed-in caller, above the static token, p50', added[0], 'ms', { most: 0.2 }),
  figure('a cached call by a connector (own-key) caller, above the static token, p50', added[1], 'ms', {
    most: 0.2,
  }),
]);
for (const { child } of [plainForSigned, plainForOwnKey, signed, ownKey]) child.kill();
issuerServer.close();
