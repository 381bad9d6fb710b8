/**
 * Client ID metadata documents served over https on loopback, under the test CA
 * (test/fixtures/tls), counting the requests each path receives: a good document, one whose
 * client_id is another URL, one larger than 64 KB, and one that never finishes arriving.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { TLS_DIR } from './own-key.js';

export const TEST_CA = readFileSync(new URL('ca.pem', TLS_DIR), 'utf8');

export interface DocumentServer {
  origin: string;
  /** The URL of a document path (its client_id). */
  url(path: string): string;
  /** Requests each path has received. */
  requests: Map<string, number>;
  close(): Promise<void>;
}

export async function startDocumentServer(redirectUri: string, clientName: string): Promise<DocumentServer> {
  const requests = new Map<string, number>();
  let origin = '';
  const document = (path: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      client_id: `${origin}${path}`,
      client_name: clientName,
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...extra,
    });
  const server: Server = createServer(
    {
      cert: readFileSync(new URL('localhost.pem', TLS_DIR)),
      key: readFileSync(new URL('localhost-key.pem', TLS_DIR)),
    },
    (req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      requests.set(path, (requests.get(path) ?? 0) + 1);
      const json = { 'content-type': 'application/json', 'cache-control': 'max-age=60' };
      if (path === '/clients/good.json') return void res.writeHead(200, json).end(document(path));
      if (path === '/clients/other.json')
        return void res
          .writeHead(200, json)
          .end(document(path, { client_id: `${origin}/clients/good.json` }));
      if (path === '/clients/big.json')
        return void res.writeHead(200, json).end(document(path, { padding: 'x'.repeat(70 * 1024) }));
      if (path === '/clients/slow.json') {
        res.writeHead(200, json).write('{"client_id":');
        return; // the rest never comes: the server under test must give up
      }
      res.writeHead(404).end();
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (path) => `${origin}${path}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
