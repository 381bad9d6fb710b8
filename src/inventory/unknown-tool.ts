/**
 * What a call of a tool the settings do not expose is told: which setting hid it, or the closest
 * names the server has. Read from the generated list (listed.ts): no tool is loaded to say it.
 */
import { planTitle } from '../kit/plans.js';
import { noToolsMessage, planHas, type Selection, toolPlans } from '../kit/toolsets.js';
import { clip } from '../messages.js';
import { closestNames } from './closest-names.js';
import { generatedTools, type ListedTool, selectedTools } from './listed.js';

/**
 * Why a tool the server has is not exposed under these settings, in one sentence that says which
 * setting hid it and how to get it; undefined when the server has no such tool.
 */
function whyHidden(name: string, config: Selection): string | undefined {
  const tool = generatedTools().find((t) => t.name === name);
  if (!tool) return undefined;
  if (!planHas(config.plan, tool)) {
    return `The tool "${name}" is hidden by SVC_PLAN=${config.plan}: the service includes it on the ${toolPlans(tool).map(planTitle).join(', ')} plans.`;
  }
  return `The tool "${name}" is in the ${tool.toolset} toolset, which SVC_TOOLSETS=${config.toolsets.join(',')} leaves out; add ${tool.toolset} (or all) to SVC_TOOLSETS to expose it.`;
}

/** What a suggested tool the settings hide needs, in a sentence: the plan, or its toolset listed. */
function toShow(tool: ListedTool, config: Selection): string {
  if (!planHas(config.plan, tool)) {
    const plans = toolPlans(tool).map(planTitle);
    return `${tool.name} needs the ${plans.slice(0, -1).join(', ')}${plans.length > 1 ? ' or ' : ''}${plans.at(-1)} plan (SVC_PLAN=${config.plan} hides it).`;
  }
  return `${tool.name} is in the ${tool.toolset} toolset: add ${tool.toolset} (or all) to SVC_TOOLSETS to list it.`;
}

/** "a, b or c". */
function orList(names: readonly string[]): string {
  return `${names.slice(0, -1).join(', ')}${names.length > 1 ? ' or ' : ''}${names.at(-1)}`;
}

/**
 * What a call of a tool these settings do not expose is told: which setting hid it, or that there
 * is no such tool and which names are closest. `listing` says where the whole list is.
 */
export function unknownToolMessage(name: string, config: Selection, listing: string): string {
  const hidden = whyHidden(name, config);
  if (hidden) return hidden;
  const all = generatedTools();
  const listed = new Set(selectedTools(config).map((tool) => tool.name));
  const closest = closestNames(name, all, listed);
  const notListed = closest.flatMap((found) => {
    const tool = all.find((t) => t.name === found);
    return tool && !listed.has(found) ? [toShow(tool, config)] : [];
  });
  const guess = closest.length > 0 ? ` Did you mean ${orList(closest)}?` : '';
  const show = notListed.length > 0 ? ` ${notListed.join(' ')}` : '';
  return `Unknown tool "${clip(name, 100)}".${guess}${show} ${listing}`;
}

/** The one-line error when the settings leave no tool at all, else undefined. */
export function noToolsError(config: Selection): string | undefined {
  return selectedTools(config).length > 0 ? undefined : noToolsMessage(config);
}
