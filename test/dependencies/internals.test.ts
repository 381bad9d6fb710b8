/**
 * The two files of dependencies svc-mcp imports by path, outside their public entry points
 * (docs/decisions/015-two-private-imports.md): each is still where it was and still the object
 * svc-mcp relies on. An update of undici or oidc-provider that moves or changes one fails here.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { providerRequest } from '../../src/sign-in/provider-context.js';
import { record } from '../helpers/recorder.js';

describe("undici's Agent module", () => {
  it('is the Agent the package exports', async () => {
    const [byPath, undici] = await Promise.all([import('undici/lib/dispatcher/agent.js'), import('undici')]);
    expect(byPath.default).toBe(undici.Agent);
  });
});

describe("oidc-provider's request context", async () => {
  const { default: als } = await import('oidc-provider/lib/helpers/als.js');
  const { warn } = console;
  console.warn = (...parts: unknown[]) => record('oidc-provider', parts.join(' '));
  const { default: Provider } = await import('oidc-provider').finally(() => {
    console.warn = warn;
  });
  let server: Server | undefined;
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it('is the store behind Provider.ctx, and the provider answers again after it is switched off', async () => {
    const sentinel = {};
    expect(als.run(sentinel, () => Provider.ctx)).toBe(sentinel);
    const answer = new Provider('http://127.0.0.1', {}).callback();
    server = createServer((req, res) => void providerRequest(async () => answer(req, res)));
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/openid-configuration`;
    for (let i = 0; i < 2; i++) {
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ issuer: 'http://127.0.0.1' });
      expect(als.getStore()).toBeUndefined();
    }
  });
});
