/**
 * Errors that lead the right way (#39): every refusal of every tool, for a wrong value of each of
 * its parameters, an unknown parameter, an unknown asset and a call over the per-call limit, names the actual
 * problem, says each thing once, and suggests only what the same tool accepts: each `name=value`
 * it suggests is sent back (priced by estimate_cost, which checks arguments as the call does) and
 * accepted, and each tool it names exists.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { type InProcessSession, openInProcess } from '../helpers/in-process.js';
import { ALL_TOOLS, defaultArgs } from '../helpers/tool-names.js';

let session: InProcessSession;
let strict: InProcessSession;
let tools: Map<string, Tool>;
beforeAll(async () => {
  session = await openInProcess({ SVC_TOOLSETS: 'all', SVC_CACHE: 'off' });
  strict = await openInProcess({ SVC_TOOLSETS: 'all', SVC_CACHE: 'off', SVC_MAX_CREDITS_PER_CALL: '0' });
  tools = new Map(session.tools.map((t) => [t.name, t]));
});
afterAll(async () => {
  await session?.close();
  await strict?.close();
});

type Schema = { type?: string | string[]; enum?: string[]; items?: unknown };

/** Wrong values for a parameter of this schema: of another type, empty, badly listed, out of range. */
function wrongValues(schema: Schema): unknown[] {
  if (schema.enum) return ['nope', 5];
  const types = [schema.type ?? []].flat();
  if (types.includes('integer') || types.includes('number')) return [-1, 1e13, 'five'];
  if (types.includes('boolean')) return ['yes'];
  if (types.includes('array')) return ['not a list', []];
  if (types.includes('string')) return ['', 'a b', 'x,', 'x'.repeat(5_000), 5];
  return ['nope'];
}

/** The `name=value` pairs a message suggests sending. */
function suggestions(message: string): [string, string][] {
  return [...message.matchAll(/\b([a-z][a-z_]*)=([\w.:-]+)/g)].map(([, name = '', value = '']) => [
    name,
    value,
  ]);
}

/** A suggested value as the tool takes it: a number where the schema wants one, true and false. */
function valueFor(schema: Schema, text: string): unknown {
  const types = [schema.type ?? []].flat();
  if (types.includes('integer') || types.includes('number')) return Number(text);
  if (types.includes('boolean')) return text === 'true';
  return text;
}

/** A refusal's checks: it says something, once, names only tools that exist, and what it suggests is accepted. */
async function checkRefusal(tool: Tool, args: Record<string, unknown>, message: string): Promise<void> {
  const where = `${tool.name} ${JSON.stringify(args).slice(0, 120)}: ${message}`;
  expect(message.length, where).toBeGreaterThan(20);
  expect(message.length, where).toBeLessThan(900);
  // In the tool's words: no validator wording, no description pasted where a rule belongs.
  expect(message, where).not.toMatch(/expected \w+, received|too (small|big):|[<>]=|invalid input|Allowed:/i);
  const sentences = message.split(/(?<=\.) /).map((s) => s.trim());
  expect(new Set(sentences).size, where).toBe(sentences.length);
  for (const named of message.match(/\b(?:get|list|search|analyze|estimate|convert)_[a-z0-9_]+\b/g) ?? []) {
    expect(tools.has(named) || named === 'convert_id', `${where}: names ${named}`).toBe(true);
  }
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, Schema>;
  for (const enumValues of Object.values(properties).flatMap((p) => (p.enum ? [p.enum] : []))) {
    if (enumValues.length < 3) continue;
    const listed = `${enumValues[0]}, ${enumValues[1]}, ${enumValues[2]}`;
    expect(message.split(listed).length - 1, `${where}: lists ${enumValues[0]}… more than once`).toBeLessThan(
      2,
    );
  }
  for (const [name, text] of suggestions(message)) {
    expect(
      Object.hasOwn(properties, name),
      `${where}: suggests ${name}, which ${tool.name} does not take`,
    ).toBe(true);
    const sent = { ...defaultArgs(tool.name), [name]: valueFor(properties[name]!, text) };
    const priced = await session.call('estimate_cost', { calls: [{ tool: tool.name, arguments: sent }] });
    const row = (priced.structuredContent as { calls: { error?: string }[] }).calls[0]!;
    expect(row.error, `${where}: ${name}=${text} sent back`).toBeUndefined();
  }
}

describe.each(ALL_TOOLS.filter((name) => name !== 'estimate_cost'))('%s', (name) => {
  it('every wrong value of every parameter, and an unknown one, is refused leading the right way', async () => {
    const tool = tools.get(name) as Tool;
    const properties = (tool.inputSchema.properties ?? {}) as Record<string, Schema>;
    const cases: Record<string, unknown>[] = [{ ...defaultArgs(name), bogus: 1 }];
    // An asset the service does not know: its refusal, and what it advises.
    if ('symbol' in properties) {
      const { id: _, slug: __, ...rest } = defaultArgs(name);
      cases.push({ ...rest, symbol: 'NOTACOIN' });
    }
    for (const [param, schema] of Object.entries(properties)) {
      for (const value of wrongValues(schema)) cases.push({ ...defaultArgs(name), [param]: value });
    }
    for (const args of cases) {
      const result = await session.call(name, args);
      if (!result.isError) continue;
      expect(result._meta?.credits, name).toBe(0);
      await checkRefusal(tool, args, textOf(result));
    }
  });

  it('over the per-call limit, the suggestion that makes it fit is one it takes', async () => {
    const tool = tools.get(name) as Tool;
    const result = await strict.call(name, defaultArgs(name));
    if (result.isError) await checkRefusal(tool, defaultArgs(name), textOf(result));
  });
});
