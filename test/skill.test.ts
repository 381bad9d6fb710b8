/**
 * The agent skill (skills/market-data/SKILL.md): its front matter names it and says when to use
 * it, every tool it names is one the server has, and every call it shows is accepted as written
 * (priced by estimate_cost, which checks arguments exactly as a call does and sends nothing).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../src/inventory/tools.js';
import { REPO_ROOT } from './helpers/cli.js';
import { startMcp } from './helpers/in-process.js';
import type { Session } from './helpers/session.js';

const SKILL = readFileSync(`${REPO_ROOT}/skills/market-data/SKILL.md`, 'utf8');
const TOOL_NAME = /^(get|list|search|analyze|estimate|convert)_[a-z0-9_]+$/;

/** Every `tool {json}` the skill shows. */
function shownCalls(): { tool: string; args: Record<string, unknown> }[] {
  return [...SKILL.matchAll(/`([a-z][a-z0-9_]+) (\{[^`]*\})`/g)].map(([, tool = '', args = '']) => ({
    tool,
    args: JSON.parse(args) as Record<string, unknown>,
  }));
}

let mcp: Session;
beforeAll(async () => {
  mcp = await startMcp({ SVC_TOOLSETS: 'all' });
});
afterAll(() => mcp?.close());

describe('the market-data skill', () => {
  it('front matter: a name and a description of when to use it', () => {
    const front = /^---\nname: (.+)\ndescription: (.+)\n---\n/.exec(SKILL);
    expect(front?.[1]).toBe('market-data');
    expect(front?.[2]?.length).toBeGreaterThan(60);
  });

  it('names only tools the server has', () => {
    const named = new Set(
      [...SKILL.matchAll(/`([a-z][a-z0-9_]+)[ `]/g), ...SKILL.matchAll(/"tool": "([a-z0-9_]+)"/g)]
        .map((m) => m[1] ?? '')
        .filter((word) => TOOL_NAME.test(word)),
    );
    expect(named.size).toBeGreaterThan(10);
    const known = new Set(tools.map((t) => t.name));
    for (const name of named) expect(known.has(name), name).toBe(true);
    for (const name of ['search_cryptocurrencies', 'estimate_cost', 'get_credit_usage', 'analyze_assets'])
      expect(named.has(name), name).toBe(true);
  });

  it('every call it shows is accepted as written', async () => {
    const calls = shownCalls();
    expect(calls.length).toBeGreaterThan(10);
    const planned = calls.flatMap(({ tool, args }) =>
      tool === 'estimate_cost' ? (args.calls as { tool: string }[]) : [{ tool, arguments: args }],
    );
    const result = await mcp.call('estimate_cost', { calls: planned, format: 'json' });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const priced = (result.structuredContent as { calls: { tool: string; error?: string }[] }).calls;
    expect(priced.filter((c) => c.error !== undefined)).toEqual([]);
  });
});
