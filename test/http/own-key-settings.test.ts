/**
 * Own-key sign-in's settings, as the configuration loader checks them at start-up: alone (not with a
 * shared token or an outside issuer), with its public URL ending in /mcp, https beyond loopback,
 * and SVC_USER_CREDIT_BUDGET as each person's cap. Each refusal names what is wrong and what to do.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';

const OWN_KEY = { SVC_SIGN_IN: 'own-key', SVC_OAUTH_RESOURCE: 'https://mcp.example.com/mcp' };

describe('own-key sign-in settings', () => {
  it('is not combined with a shared token or an outside issuer', () => {
    for (const extra of [
      { SVC_HTTP_TOKEN: 'a-token-of-sixteen-or-more' },
      { SVC_OAUTH_ISSUER: 'https://login.example.com' },
    ]) {
      expect(() => loadConfig({ ...OWN_KEY, ...extra })).toThrow(
        /^SVC_SIGN_IN=own-key signs people in itself: it cannot be combined with SVC_HTTP_TOKEN or SVC_OAUTH_ISSUER; unset them\./,
      );
    }
  });

  it('needs its public URL, ending in /mcp, and https beyond loopback', () => {
    expect(() => loadConfig({ SVC_SIGN_IN: 'own-key' })).toThrow(
      /^SVC_OAUTH_RESOURCE is required with SVC_SIGN_IN=own-key/,
    );
    expect(() => loadConfig({ ...OWN_KEY, SVC_OAUTH_RESOURCE: 'https://mcp.example.com/api' })).toThrow(
      /^SVC_OAUTH_RESOURCE must end in \/mcp, the MCP endpoint \(got \/api\)/,
    );
    expect(() => loadConfig({ ...OWN_KEY, SVC_OAUTH_RESOURCE: 'http://mcp.example.com/mcp' })).toThrow(
      /^SVC_OAUTH_RESOURCE must be https beyond loopback/,
    );
    expect(loadConfig({ ...OWN_KEY, SVC_OAUTH_RESOURCE: 'http://127.0.0.1:8080/mcp' }).signIn).toBe(
      'own-key',
    );
  });

  it('takes SVC_USER_CREDIT_BUDGET as the cap on each person, and refuses an unknown mode', () => {
    expect(loadConfig({ ...OWN_KEY, SVC_USER_CREDIT_BUDGET: '500' }).userCreditBudget).toBe(500);
    expect(() => loadConfig({ SVC_SIGN_IN: 'password' })).toThrow(/SVC_SIGN_IN.*own-key/);
  });
});
