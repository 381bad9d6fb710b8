/**
 * Transport and protocol parity: the SDK 1.x client over the 2025 handshake and the v2 client over
 * 2026-07-28, each over stdio and over HTTP, list the same tools and get the same answers, byte for
 * byte, from servers on the same frozen clock (the embedded sandbox is deterministic at an instant).
 * Every tool is called with valid arguments (its VALID_ARGS row), so every compared answer is an
 * answer, not an error.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession } from '../helpers/in-process.js';
import { NOW } from '../helpers/now.js';
import { kindLabel, SESSION_KINDS, type Session } from '../helpers/session.js';
import { ALL_TOOLS, defaultArgs, VALID_ARGS } from '../helpers/tool-names.js';

/** A state directory each, so every session's credit figures start from nothing. */
const stateDirs = SESSION_KINDS.map(() => mkdtempSync(join(tmpdir(), 'svc-parity-')));

/** What a client shows a model: the content, the structured data and whether it failed. */
function answer(result: CallToolResult) {
  return { content: result.content, structuredContent: result.structuredContent, isError: result.isError };
}

/** Each tool once with its valid arguments and once as JSON, then the credit figures. */
async function everything(session: Session) {
  const answers: Record<string, unknown> = {};
  for (const tool of session.tools) {
    const args = defaultArgs(tool.name);
    answers[tool.name] = answer(await session.call(tool.name, args));
    answers[`${tool.name} json`] = answer(await session.call(tool.name, { ...args, format: 'json' }));
  }
  const credits = await session.readResource('svc://credits');
  answers['svc://credits'] = JSON.parse(credits.contents[0]!.text ?? 'null');
  // How the figures name the ledger is the one thing that differs by design: stdio gives its path,
  // HTTP only its kind (no HTTP caller learns a server path).
  // A kept result's id (its cursors, its table's name) and its expiry follow when the service
  // answered, in real milliseconds: its page and its table's columns and rows are what is compared.
  const text = JSON.stringify(answers)
    .replaceAll(stateDirs[sessions.indexOf(session)]!, '<state>')
    .replace(/[\w-]{16}(\.\d+\\?")/g, '<result>$1')
    .replace(/\b([a-z][a-z0-9_]*)_[0-9a-z]{4}( until )(?:\d{4}-\d\d-\d\d )?\d\d:\d\d UTC/g, '$1_<id>$2<time>')
    .replace(/(\\?"table\\?":\\?"[a-z][a-z0-9_]*)_[0-9a-z]{4}/g, '$1_<id>')
    .replace(/(\\?"expires\\?":\\?")[\dT:.Z-]+/g, '$1<time>');
  return JSON.parse(text.replace(/<state>\/ledger\.(json|sqlite)/g, 'file'));
}

const sessions: Session[] = [];
beforeAll(async () => {
  for (const [i, kind] of SESSION_KINDS.entries()) {
    // No cache: a cached answer says how old it is, in real seconds, which a slow moment changes.
    sessions.push(
      await openSession(kind, {
        SVC_NOW: NOW,
        SVC_STATE_DIR: stateDirs[i] as string,
        SVC_CACHE: 'off',
        SVC_TOOLSETS: 'all',
      }),
    );
  }
});
afterAll(async () => {
  await Promise.all(sessions.map((session) => session.close()));
  for (const dir of stateDirs) rmSync(dir, { recursive: true, force: true });
});

describe('both clients, both transports', () => {
  it('each speaks its revision: 2025 through the 1.x client, 2026-07-28 through v2', () => {
    for (const session of sessions) {
      const expected = session.kind.client === 'v2' ? '2026-07-28' : /^2025-/;
      expect(session.protocolVersion, kindLabel(session.kind)).toMatch(expected);
    }
  });

  it('every tool has a row of valid arguments', () => {
    expect(sessions[0]!.tools.map((t) => t.name)).toEqual(Object.keys(VALID_ARGS));
  });

  it('list the same tools with the same definitions', () => {
    const [first, ...others] = sessions;
    for (const session of others) expect(session.tools, kindLabel(session.kind)).toEqual(first?.tools);
  });

  it('get the same answers to every tool, and the same credit figures', async () => {
    const [first, ...others] = await Promise.all(sessions.map(everything));
    for (const tool of ALL_TOOLS) {
      for (const name of [tool, `${tool} json`]) {
        const { isError, content } = first[name] as ReturnType<typeof answer>;
        expect(isError, `${name}: ${JSON.stringify(content).slice(0, 300)}`).toBeFalsy();
      }
    }
    for (const [i, answers] of others.entries()) {
      expect(answers, kindLabel(sessions[i + 1]!.kind)).toEqual(first);
    }
    // Every tool, twice, through four sessions: on a busy machine it takes more than one call's time.
  }, 90_000);
});
