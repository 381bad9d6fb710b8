// @ts-check
/**
 * docs/service.md's endpoint sections, from the endpoints' table: each endpoint's path, the tool that calls
 * it, its credits, refresh and plans, and the parameters the service takes with the rules and
 * defaults the table checks before sending (the JSON Schema of its service parameters).
 */
import { z } from 'zod';

/** A parameter's rule in words: its type, the values or range it allows, its pattern and length. */
function ruleOf(schema) {
  if (schema.enum) return `one of ${schema.enum.map((v) => `\`${v}\``).join(', ')}`;
  const types = [schema.type ?? (schema.anyOf ?? []).map((s) => s.type)].flat().filter(Boolean);
  const parts = [types.join(' or ') || 'any'];
  const low = schema.minimum ?? schema.exclusiveMinimum;
  const high = schema.maximum ?? schema.exclusiveMaximum;
  if (low !== undefined && high !== undefined) parts.push(`${low} to ${high}`);
  else if (low !== undefined) parts.push(`at least ${low}`);
  else if (high !== undefined) parts.push(`at most ${high}`);
  if (schema.pattern) parts.push(`matching \`${schema.pattern}\``);
  if (schema.maxLength !== undefined) parts.push(`at most ${schema.maxLength} characters`);
  return parts.join(', ');
}

const cell = (text) => String(text ?? '').replaceAll('|', '\\|');

function parameterTable(endpoint) {
  const schema = z.toJSONSchema(endpoint.serviceInput, { io: 'input', unrepresentable: 'any' });
  const rows = Object.entries(/** @type {Record<string, any>} */ (schema.properties ?? {})).map(
    ([name, p]) =>
      `| \`${name}\` | ${cell(ruleOf(p))} | ${p.default === undefined ? '' : `\`${p.default}\``} | ${cell(p.description)} |`,
  );
  if (rows.length === 0) return 'No parameters.';
  return ['| Parameter | Rule | Default | Notes |', '|---|---|---|---|', ...rows].join('\n');
}

/** One section an endpoint, in the table's order. */
export function endpointSections(tools, plansText, formatDuration) {
  return tools
    .filter((t) => t.kind === 'endpoint')
    .map((t) => {
      const refresh = t.refreshSeconds > 0 ? `every ${formatDuration(t.refreshSeconds)}` : 'live';
      return [
        `### GET ${t.path} (\`${t.name}\`)`,
        '',
        `Credits: ${t.credits.text}. Refresh: ${refresh}. Plans: ${plansText(t.plans)}.`,
        '',
        parameterTable(t),
      ].join('\n');
    })
    .join('\n\n');
}
