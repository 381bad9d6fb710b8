#!/usr/bin/env node
// @ts-check
/**
 * Writes what is generated: from the tools, the tool list servers answer with before the tools
 * has loaded (src/inventory/tool-list.json: each tool's definition and what selects it); from the tools
 * and the settings table, the README's list of tools, reliability.md's context budget,
 * docs/tools.md's table, docs/service.md's endpoints, docs/settings.md's tables, the bundle
 * manifest's tools and user_config, and server.json for the MCP Registry; from the benchmarks' results, docs/performance.md and
 * the times of the suite and CI in docs/testing.md and the README.
 * `--check` changes nothing and exits 1 when any is stale. Reads the build (dist/), so run
 * `npm run build` first.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { performancePage, suiteTimeLine, suiteTimes } from './performance-page.mjs';
import { endpointSections } from './service-page.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const {
  plansText,
  TOOLSETS,
  tools,
  settingsDoc,
  formatDuration,
  ICON,
  toolDefinition,
  listingFor,
  loadConfig,
  columnsOfSchema,
  tablePrefix,
} = await (await import(`${root}dist/for-scripts.js`)).forDocs();
const settings = settingsDoc();
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));

function toolRow(t) {
  const set = `${t.toolset}${t.inDefault ? ' (default)' : ''}`;
  if (t.kind === 'local') return `| \`${t.name}\` | (answered by the server) | ${set} | free | live | all |`;
  const refresh = t.refreshSeconds > 0 ? `every ${formatDuration(t.refreshSeconds)}` : 'live, not cached';
  return `| \`${t.name}\` | \`GET ${t.path}\` | ${set} | ${t.credits.text} | ${refresh} | ${plansText(t.plans)} |`;
}

/** The README's list: each tool, its toolset (marked when in the default list) and what it answers. */
function toolList() {
  const rows = tools.map((t) => {
    const set = `${t.toolset}${t.inDefault ? ' (default)' : ''}`;
    return `| \`${t.name}\` | ${set} | ${t.description.split('\n')[0]} |`;
  });
  return ['| Tool | Toolset | What it answers |', '|---|---|---|', ...rows].join('\n');
}

function toolTable() {
  const rows = tools.map(toolRow);
  return [
    '| Tool | Endpoint | Toolset | Credits | Refresh | Plans |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** docs/kept-tables.md's table: each tool whose answers are kept as tables, its tables' names and columns. */
function keptTables() {
  const rows = tools
    .filter((t) => t.kind === 'endpoint' && (t.rows ?? t.pages?.rows) !== undefined)
    .map((t) => {
      // The table's rows as the tool keeps them (kit/define.ts tableRows): its own, else its pages'.
      const columns = columnsOfSchema(t.output, t.rows ?? t.pages.rows).join(', ');
      return `| \`${t.name}\` | \`${tablePrefix(t.name)}_…\` | ${columns} |`;
    });
  return ['| Tool | Tables | Columns |', '|---|---|---|', ...rows].join('\n');
}

function toolsetList() {
  return Object.entries(TOOLSETS)
    .map(([name, what]) => `- \`${name}\`: ${what}`)
    .join('\n');
}

function settingsTable() {
  const rows = settings.map((s) => `| \`${s.env}\` | ${s.meaning} | ${s.shown} |`);
  return ['| Variable | Meaning | Default |', '|---|---|---|', ...rows].join('\n');
}

function replaceBetween(text, name, body) {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < 0) throw new Error(`a generated page lacks the ${start} … ${end} markers`);
  return `${text.slice(0, from + start.length)}\n${body}\n${text.slice(to)}`;
}

function manifest(current) {
  // Every setting, so that the bundle can be configured fully (the HTTP ones matter to `svc-mcp http`).
  const env = Object.fromEntries(settings.map((s) => [s.env, `\${user_config.${s.key}}`]));
  const userConfig = Object.fromEntries(
    settings.map((s) => [
      s.key,
      {
        type: typeof s.default === 'number' ? 'number' : 'string',
        title: s.title,
        description: `${s.meaning} (${s.env}).`,
        required: false,
        ...(s.default !== undefined ? { default: s.default } : {}),
        ...(s.sensitive ? { sensitive: true } : {}),
      },
    ]),
  );
  return {
    ...current,
    version: pkg.version,
    server: {
      type: 'node',
      entry_point: 'dist/cli.js',
      mcp_config: {
        command: 'node',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the bundle host substitutes ${__dirname}
        args: ['${__dirname}/dist/cli.js', 'stdio'],
        env,
      },
    },
    // The bundle's PNG stays its `icon`; the SVG is the same mark at any size.
    icons: [{ src: ICON.src, size: '512x512' }],
    tools: tools.map((t) => ({ name: t.name, description: t.description.split('\n')[0] })),
    user_config: userConfig,
  };
}

/** Every tool's definition as tools/list gives it, with what selects it (mcp/listing.ts reads it). */
function generatedToolList() {
  const listed = tools.map((t) => ({
    name: t.name,
    title: t.title,
    toolset: t.toolset,
    ...(t.inDefault ? { inDefault: true } : {}),
    ...(t.plans ? { plans: t.plans } : {}),
    refreshSeconds: t.kind === 'endpoint' ? t.refreshSeconds : 0,
    definition: toolDefinition(t),
  }));
  return `${JSON.stringify({ tools: listed }, null, 1)}\n`;
}

const bytes = (value) => Buffer.byteLength(JSON.stringify(value));
const readBytes = (t) =>
  bytes({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema });
const grouped = (n) => Math.round(n).toLocaleString('en-US');

/** reliability.md's context budget: each bound, and what the generated list measures now. */
function contextTable() {
  const listed = (toolsets) => listingFor(loadConfig({ SVC_TOOLSETS: toolsets })).definitions;
  const [defaults, all] = [listed('default'), listed('all')];
  const read = defaults.reduce((n, t) => n + readBytes(t), 0);
  const largest = defaults.reduce((a, t) => (readBytes(t) > readBytes(a) ? t : a));
  const biggest = all.reduce((a, t) => (bytes(t) > bytes(a) ? t : a));
  const allRead = all.reduce((n, t) => n + readBytes(t), 0) / all.length;
  const allWhole = all.reduce((n, t) => n + bytes(t), 0) / all.length;
  return [
    '| Measure | Bound | Now |',
    '|---|---|---|',
    `| \`tools/list\`, \`default\` (${defaults.length} tools): name, title, description and input schema | ≤ 600 bytes a tool, ≤ 18 KB in all, no tool over 1,200 ([decision 009](decisions/009-a-small-list-built-once.md), [017](decisions/017-scripts-in-quickjs.md)) | ${grouped(read / defaults.length)} a tool, ${grouped(read)} in all; the most, ${grouped(readBytes(largest))} (\`${largest.name}\`) |`,
    `| \`tools/list\`, \`default\`, the whole list (output schemas, annotations, views) | ≤ 30 KB | ${grouped(bytes({ tools: defaults }))} |`,
    `| one tool's whole definition, any toolset | < 3 KB | the most, ${grouped(bytes(biggest))} (\`${biggest.name}\`) |`,
    `| \`tools/list\`, \`all\` (${all.length} tools): what the model reads / whole definitions, a tool | (measured) | ${grouped(allRead)} / ${grouped(allWhole)} |`,
    '| an answer with default arguments | < 16 KB data, < 4,000 characters text | (`test/guard/budget-calls.test.ts` prints the largest) |',
    '| any answer, whatever its arguments | ≤ `SVC_MAX_ANSWER_CHARS` (100,000) characters of text and of data; < 1 MiB on the wire at its most (400,000) | a page, else cut to fit (its longest lists, then its longest text), saying so |',
    '| a text page | its rows ≤ `SVC_TEXT_PAGE_CHARS` (20,000) characters, every row it covers shown, then its notes ([decision 014](decisions/014-text-shows-every-row.md)) | 200 listed assets, or 60 daily candles, a page |',
  ].join('\n');
}

/** Where the project lives: the repository, whose README is also its website. */
const REPOSITORY = 'https://github.com/svc-mcp/svc-mcp';

/**
 * The MCP Registry's entry (schema 2025-12-11, a copy in schemas/): the npm package run with npx
 * over stdio, every setting an environment variable; and the Streamable HTTP form a team runs
 * (`svc-mcp http` at an address of its own), with the headers its clients send.
 */
function serverJson() {
  const keyHeader = settings.find((s) => s.env === 'SVC_API_KEY_HEADER')?.default;
  return {
    $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
    name: 'io.github.svc-mcp/svc-mcp',
    title: 'Market Data Service',
    description: 'Crypto market data as MCP tools, with a credit budget, a cache and an offline sandbox.',
    version: pkg.version,
    icons: [ICON],
    repository: { url: REPOSITORY, source: 'github' },
    websiteUrl: `${REPOSITORY}#readme`,
    packages: [
      {
        registryType: 'npm',
        registryBaseUrl: 'https://registry.npmjs.org',
        identifier: pkg.name,
        version: pkg.version,
        runtimeHint: 'npx',
        transport: { type: 'stdio' },
        environmentVariables: settings.map((s) => ({
          name: s.env,
          description: `${s.meaning} (default: ${s.shown}).`,
          isRequired: false,
          ...(s.sensitive ? { isSecret: true } : {}),
          ...(s.default !== undefined ? { default: String(s.default) } : {}),
        })),
      },
    ],
    remotes: [
      {
        type: 'streamable-http',
        url: 'https://{host}/mcp',
        variables: {
          host: {
            description: 'Where your team runs `svc-mcp http` (docs/team.md), e.g. mcp.example.com.',
            isRequired: true,
          },
        },
        headers: [
          {
            name: 'Authorization',
            description:
              "Bearer and the server's SVC_HTTP_TOKEN, or an access token when it asks you to sign in.",
            value: 'Bearer {token}',
            isRequired: true,
            isSecret: true,
            variables: { token: { description: 'The token', isRequired: true, isSecret: true } },
          },
          {
            name: keyHeader,
            description:
              'Your own key for the service, with a budget of its own; without it the server uses its key.',
            isRequired: false,
            isSecret: true,
          },
        ],
      },
    ],
  };
}

const check = process.argv.includes('--check');
const blocks = { 'tool-list': toolList, tools: toolTable, toolsets: toolsetList, settings: settingsTable };
/** Each generated file: its path, and its text as it should be, given the text it has. */
/** @type {[string, (text: string) => string][]} */
const generated = [
  [
    'README.md',
    (text) =>
      replaceBetween(
        replaceBetween(text, 'tool-list', blocks['tool-list']()),
        'suite-time',
        suiteTimeLine(`${root}tools/bench/results`),
      ),
  ],
  ['docs/tools.md', (text) => replaceBetween(text, 'tools', blocks.tools())],
  [
    'docs/service.md',
    (text) => replaceBetween(text, 'endpoints', endpointSections(tools, plansText, formatDuration)),
  ],
  [
    'docs/settings.md',
    (text) =>
      replaceBetween(replaceBetween(text, 'settings', blocks.settings()), 'toolsets', blocks.toolsets()),
  ],
  ['docs/performance.md', () => performancePage(`${root}tools/bench/results`)],
  ['docs/testing.md', (text) => replaceBetween(text, 'suite-time', suiteTimes(`${root}tools/bench/results`))],
  ['docs/reliability.md', (text) => replaceBetween(text, 'context', contextTable())],
  ['docs/kept-tables.md', (text) => replaceBetween(text, 'tables', keptTables())],
  ['manifest.json', (text) => `${JSON.stringify(manifest(JSON.parse(text)), null, 2)}\n`],
  ['server.json', () => `${JSON.stringify(serverJson(), null, 2)}\n`],
  ['src/inventory/tool-list.json', generatedToolList],
];
const stale = [];
for (const [path, next] of generated) {
  const file = `${root}${path}`;
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const wanted = next(text);
  if (wanted === text) continue;
  stale.push(path);
  if (!check) writeFileSync(file, wanted);
}
if (check) {
  if (stale.length > 0) {
    console.error(`Stale: ${stale.join(', ')}. Run \`npm run docs\` and commit the result.`);
    process.exit(1);
  }
  console.log('The generated pages, manifest.json and server.json match the tools and the benchmarks.');
} else {
  console.log(stale.length > 0 ? `Updated ${stale.join(', ')}.` : 'Nothing to update.');
}
