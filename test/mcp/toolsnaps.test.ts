/** Every tool's definition, as tools/list gives it with every toolset on, against its committed file. */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcp } from '../helpers/in-process.js';
import type { Session } from '../helpers/session.js';
import { ALL_TOOLS } from '../helpers/tool-names.js';
import { HOW_TO_UPDATE, readToolsnap, toolsnapNames, UPDATE, writeToolsnaps } from '../helpers/toolsnaps.js';

describe('tool snapshots (test/mcp/__toolsnaps__)', () => {
  let mcp: Session;
  beforeAll(async () => {
    mcp = await startMcp({ SVC_TOOLSETS: 'all' });
    if (UPDATE) writeToolsnaps(mcp.tools);
  });
  afterAll(() => mcp?.close());

  it('lists every tool the server has', () => {
    expect(mcp.tools.map((t) => t.name)).toEqual(ALL_TOOLS);
  });

  it('has one file per tool, and no file without a tool', () => {
    const listed = mcp.tools.map((t) => t.name).sort();
    expect(toolsnapNames().sort(), `The tools and the files differ. ${HOW_TO_UPDATE}`).toEqual(listed);
  });

  it.each(ALL_TOOLS)('%s matches its file', (name) => {
    const tool = mcp.tools.find((t: Tool) => t.name === name);
    expect(tool, `tools/list has no ${name}`).toBeDefined();
    // CI never writes these: a changed definition fails until its file is updated and reviewed.
    expect(tool, `${name} differs from test/mcp/__toolsnaps__/${name}.json. ${HOW_TO_UPDATE}`).toEqual(
      readToolsnap(name),
    );
  });
});
