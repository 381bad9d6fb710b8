/**
 * The one list of tools, as generated at build time (tool-list.json, written by `npm run docs` from
 * the tools and checked against them by test/docs.test.ts), and the one selection of it that
 * settings make (SVC_TOOLSETS, SVC_PLAN): what `tools/list`, the CLI and a call's lookup all use.
 * Reading it loads no tool, so `initialize` and `tools/list` are answered before the call path has
 * loaded (decision 009).
 */
import type { Tool as McpTool } from '@modelcontextprotocol/server';
import type { Plan } from '../kit/plans.js';
import { type Selectable, type Selection, selectFrom, type Toolset } from '../kit/toolsets.js';
import toolList from './tool-list.json' with { type: 'json' };

/** A tool as the generated list has it: what selects it, and its definition. */
export interface ListedTool extends Selectable {
  name: string;
  title: string;
  toolset: Toolset;
  plans?: Plan[];
  /** Its endpoint's refresh time; 0 for tools the server answers itself. */
  refreshSeconds: number;
  definition: McpTool;
}

/** Every tool the server has, as generated. */
export function generatedTools(): readonly ListedTool[] {
  return (toolList as unknown as { tools: ListedTool[] }).tools;
}

const selections = new WeakMap<Selection, readonly ListedTool[]>();

/** The tools these settings expose, in the list's order; worked out once per settings object. */
export function selectedTools(config: Selection): readonly ListedTool[] {
  let selected = selections.get(config);
  if (!selected) {
    selected = selectFrom(generatedTools(), config);
    selections.set(config, selected);
  }
  return selected;
}
