/** For a test file: a fake upstream, and a server built in this process pointed at it with the secret key, shared by its tests. */
import { afterAll, beforeAll } from 'vitest';
import { type FakeUpstream, startFakeUpstream } from './fake-upstream.js';
import { startMcp } from './in-process.js';
import { SECRET_KEY } from './secret.js';
import type { Session } from './session.js';

export interface FakeSession {
  upstream: FakeUpstream;
  mcp: Session;
}

/** `env` adds settings, e.g. SVC_TOOLSETS=all for tools outside the default list. */
export function useFakeUpstreamSession(env: Record<string, string> = {}): FakeSession {
  const session = {} as FakeSession;
  beforeAll(async () => {
    session.upstream = await startFakeUpstream();
    // Tests change the fake's replies between calls to the same path: every call must reach it.
    session.mcp = await startMcp({
      SVC_API_KEY: SECRET_KEY,
      SVC_BASE_URL: session.upstream.url,
      SVC_CACHE: 'off',
      ...env,
    });
  });
  afterAll(async () => {
    await session.mcp?.close();
    await session.upstream?.close();
  });
  return session;
}

/** An answer's data as the tool normalised it: without the table its rows are kept as (kept/). */
export function normalisedData(structured: unknown): Record<string, unknown> {
  const { kept: _, ...data } = structured as Record<string, unknown>;
  return data;
}
