#!/usr/bin/env node
/**
 * What sign-in costs a call: a cached tool call over HTTP with a signed-in caller (an RS256 JWT
 * checked against the issuer's cached keys) beside the same call with the static SVC_HTTP_TOKEN,
 * taken in turn so that the machine's load hits both alike; p50 and p95 of each and the
 * difference. The issuer is played by this script (its metadata and key set on loopback, tokens
 * signed with jose): the check is the server's, whoever signs. `npm run build` first.
 *
 *   node tools/bench/sign-in.mjs [--calls 2000]
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { beside, cliArgs, freePort, percentile, ROOT } from './processes.mjs';
import { figure, saveResults } from './results.mjs';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '2000' } } });
const calls = Number(values.calls);
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
await new Promise((resolve) => issuerServer.listen(issuerPort, '127.0.0.1', resolve));

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

const plain = await server(() => ({ SVC_HTTP_TOKEN: TOKEN }));
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

const samples = await beside(call(signed.base, jwt), call(plain.base, TOKEN), { warmup: 200, calls });
const p = (list, q) => percentile(list, q).toFixed(3);
console.log(
  `signed-in caller: p50 ${p(samples.call, 50)} ms, p95 ${p(samples.call, 95)} ms (${calls} cached calls)`,
);
console.log(`static token:     p50 ${p(samples.direct, 50)} ms, p95 ${p(samples.direct, 95)} ms`);
console.log(
  `sign-in adds at p50: ${(percentile(samples.call, 50) - percentile(samples.direct, 50)).toFixed(3)} ms`,
);
saveResults('sign-in', 'node tools/bench/sign-in.mjs', [
  figure(
    'a cached call by a signed-in caller, above the static token, p50',
    percentile(samples.call, 50) - percentile(samples.direct, 50),
    'ms',
    { most: 0.2 },
  ),
]);
plain.child.kill();
signed.child.kill();
issuerServer.close();
