/**
 * docs/scripts.md's examples run as written: each `js` block, through a real MCP client against
 * the embedded sandbox, answers without an error and is charged what its calls cost.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newStateDir, textOf } from '../helpers/cli.js';
import { type InProcessSession, startMcp } from '../helpers/in-process.js';
import { NOW } from '../helpers/now.js';

const EXAMPLES = [
  ...readFileSync(new URL('../../docs/scripts.md', import.meta.url), 'utf8').matchAll(
    /```js\n([\s\S]*?)```/g,
  ),
].map((match) => match[1] ?? '');

let mcp: InProcessSession;
beforeAll(async () => {
  mcp = await startMcp({ SVC_NOW: NOW, SVC_STATE_DIR: newStateDir() });
  // A kept table for the query example to find.
  await mcp.call('get_cryptocurrency_listings_latest', { limit: 20 });
});
afterAll(() => mcp?.close());

describe("docs/scripts.md's examples", () => {
  it('are there', () => expect(EXAMPLES.length).toBeGreaterThanOrEqual(3));

  it.each(EXAMPLES.map((code, i) => [i + 1, code]))('example %i runs as written', async (_, code) => {
    const result = await mcp.call('run_script', { code, format: 'json' });
    expect(result.isError, textOf(result)).toBeFalsy();
    const script = result.structuredContent as { result: unknown; credits: number };
    expect(script.result).not.toBeNull();
    expect((result._meta as { credits: number }).credits).toBe(script.credits);
  });
});
