/**
 * Schema-driven fuzzing: for every tool, invalid values made from its own input schema (wrong
 * types, past the bounds, pattern and enum violations, huge strings, missing required ones) each
 * give `isError` naming the parameter, with no request to the service, and the server stays up. The
 * parameters are those tools/list advertises; their rules are read from the full schema the server
 * checks with, since the advertised one leaves out the string patterns and lengths that refusals
 * spell out anyway (to keep the tool list small).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tools } from '../../src/inventory/tools.js';
import { textOf } from '../helpers/cli.js';
import { startMcp } from '../helpers/in-process.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import type { Session } from '../helpers/session.js';
import { defaultArgs } from '../helpers/tool-names.js';

interface PropertySchema {
  type?: string | string[];
  anyOf?: PropertySchema[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  maxLength?: number;
  pattern?: string;
}

const HUGE = 'A'.repeat(2_000_000);

function types(schema: PropertySchema): string[] {
  if (schema.anyOf) return schema.anyOf.flatMap(types);
  return Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
}

/** Values the schema itself says are wrong, each with why. */
function invalidValues(schema: PropertySchema): [string, unknown][] {
  const kinds = types(schema);
  const out: [string, unknown][] = [];
  if (!kinds.includes('string')) out.push(['a string', 'not a number'], ['a huge string', HUGE]);
  if (!kinds.includes('number') && !kinds.includes('integer')) out.push(['a number', 12345]);
  if (!kinds.includes('boolean')) out.push(['a boolean', true]);
  out.push(['an object', { nested: HUGE }], ['an array', [1, 2, 3]], ['null', null]);
  if (kinds.includes('string')) {
    out.push(['a 2 MB string', HUGE]);
    if (schema.maxLength !== undefined) out.push(['one past maxLength', 'A'.repeat(schema.maxLength + 1)]);
    if (schema.pattern !== undefined) out.push(['a pattern violation', '!!!']);
    if (schema.enum) out.push(['an unknown choice', 'not-one-of-these']);
  }
  if (kinds.includes('integer')) out.push(['a fraction', 1.5]);
  if (kinds.includes('number') || kinds.includes('integer')) {
    if (schema.minimum !== undefined)
      out.push(['below the minimum', schema.minimum - Math.max(1, Math.abs(schema.minimum) / 100)]);
    if (schema.exclusiveMinimum !== undefined)
      out.push(['at the exclusive minimum', schema.exclusiveMinimum]);
    if (schema.maximum !== undefined)
      out.push(['above the maximum', schema.maximum + Math.max(1, Math.abs(schema.maximum) / 100)]);
    out.push(['far past any bound', 1e300]);
  }
  return out;
}

let sandbox: Sandbox;
let mcp: Session;
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
  mcp = await startMcp(sandboxEnv(sandbox, 'sandbox-enterprise', { SVC_CACHE: 'off', SVC_TOOLSETS: 'all' }));
});
afterAll(async () => {
  await mcp?.close();
  await sandbox?.close();
});

describe('every tool refuses what its own schema forbids, sending nothing', () => {
  it('covers every tool and every parameter', async () => {
    const before = sandbox.stats.requests;
    let cases = 0;
    for (const tool of mcp.tools) {
      const schema = tool.inputSchema as { properties?: Record<string, PropertySchema>; required?: string[] };
      const own = tools.find((t) => t.name === tool.name);
      if (!own) throw new Error(`${tool.name} is not one of the server's tools`);
      const full = z.toJSONSchema(own.toolInput, { io: 'input', unrepresentable: 'any' }) as {
        properties: Record<string, PropertySchema>;
      };
      // Valid arguments for the rest, so that each case breaks one parameter only.
      const base = defaultArgs(tool.name);
      for (const name of Object.keys(schema.properties ?? {})) {
        for (const [why, value] of invalidValues(full.properties[name]!)) {
          const result = await mcp.call(tool.name, { ...base, [name]: value });
          const text = textOf(result);
          const what = `${tool.name}.${name} = ${why}`;
          expect(result.isError, `${what}: ${text.slice(0, 200)}`).toBe(true);
          expect(text, what).toContain(`"${name}"`);
          expect(text.length, what).toBeLessThan(2000);
          cases++;
        }
      }
      for (const name of schema.required ?? []) {
        const { [name]: _, ...rest } = base;
        const result = await mcp.call(tool.name, rest);
        expect(textOf(result), `${tool.name} without ${name}`).toContain(`Missing parameter "${name}"`);
        cases++;
      }
    }
    expect(sandbox.stats.requests - before).toBe(0);
    expect(cases).toBeGreaterThan(200);
    await mcp.client.ping();
  }, 120_000);

  it('names the caller chose are cut short in errors: an unknown 3 MB parameter, a 1 MB tool name', async () => {
    const longName = 'p'.repeat(3_000_000);
    const unknown = textOf(await mcp.call('get_fear_and_greed_latest', { [longName]: 1 }));
    expect(unknown).toMatch(/^Unknown parameter "p{40}…"; this tool takes: format\.$/);
    const tool = textOf(await mcp.call('t'.repeat(1_000_000)));
    expect(tool.length).toBeLessThan(3000);
    expect(tool).toMatch(/^Unknown tool "t{100}…"/);
    await mcp.client.ping();
  });
});
