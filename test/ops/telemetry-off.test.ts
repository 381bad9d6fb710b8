/**
 * Telemetry costs nothing when it is off: without the OTEL_* exporter settings the built server
 * answers tool calls without loading a module of the OpenTelemetry SDK, and without sign-in it
 * never loads the token library or the authorization server (oidc-provider). With the settings, the same check sees the SDK load, so the
 * check itself can tell.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { newStateDir, textOf } from '../helpers/cli.js';
import { spawnMcp } from '../helpers/session.js';

const PRELOAD = pathToFileURL(join(import.meta.dirname, '../helpers/module-log.mjs')).href;

/** The modules a stdio server loaded while answering one tool call on the embedded sandbox. */
async function modulesLoaded(env: Record<string, string>): Promise<string[]> {
  const log = join(newStateDir(), 'modules.log');
  const mcp = await spawnMcp({ ...env, NODE_OPTIONS: `--import=${PRELOAD}`, MODULE_LOG: log });
  try {
    const result = await mcp.call('get_fear_and_greed_latest');
    expect(textOf(result)).toContain('Fear & Greed');
  } finally {
    await mcp.close();
  }
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

describe('telemetry off', () => {
  it('loads no OpenTelemetry module, no token library and no authorization server', async () => {
    const loaded = await modulesLoaded({});
    expect(loaded.some((url) => url.includes('/dist/cli.js'))).toBe(true);
    expect(loaded.filter((url) => url.includes('/@opentelemetry/'))).toEqual([]);
    expect(loaded.filter((url) => url.includes('/node_modules/jose/'))).toEqual([]);
    expect(loaded.filter((url) => url.includes('/node_modules/oidc-provider/'))).toEqual([]);
  });

  it('with the exporter settings, the same check sees the SDK load', async () => {
    const loaded = await modulesLoaded({
      // Nothing listens there: the export fails quietly in the background, the call is unaffected.
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
    });
    expect(loaded.some((url) => url.includes('/@opentelemetry/sdk-trace-node/'))).toBe(true);
    expect(loaded.some((url) => url.includes('/@opentelemetry/sdk-metrics/'))).toBe(true);
  });
});
