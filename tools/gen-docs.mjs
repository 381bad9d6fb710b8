#!/usr/bin/env node
/**
 * Writes what is generated from the catalog and the settings table: the README's tool and settings
 * tables, the bundle manifest's tools and user_config, and server.json for the MCP Registry.
 * `--check` changes nothing and exits 1 when any is stale. Reads the build (dist/), so run
 * `npm run build` first.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { plansText, TOOLSETS, tools } = await import(`${root}dist/catalog/index.js`);
const { SETTINGS_DOC } = await import(`${root}dist/config/index.js`);
const { formatDuration } = await import(`${root}dist/format/text.js`);
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));

/** The Node flags on the CLI's first line (`#!/usr/bin/env -S node …`), which the bundle's host does not read. */
function cliNodeFlags() {
  return readFileSync(`${root}src/cli.ts`, 'utf8').split('\n', 1)[0].split(/\s+/).slice(3);
}

function toolRow(t) {
  const set = `${t.toolset}${t.inDefault ? ' (default)' : ''}`;
  if (t.kind === 'local') return `| \`${t.name}\` | (answered by the server) | ${set} | free | live | all |`;
  const refresh = t.refreshSeconds > 0 ? `every ${formatDuration(t.refreshSeconds)}` : 'live, not cached';
  return `| \`${t.name}\` | \`GET ${t.path}\` | ${set} | ${t.credits.text} | ${refresh} | ${plansText(t.plans)} |`;
}

function toolTable() {
  const rows = tools.map(toolRow);
  return [
    '| Tool | Endpoint | Toolset | Credits | Refresh | Plans |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

function toolsetList() {
  return Object.entries(TOOLSETS)
    .map(([name, what]) => `- \`${name}\`: ${what}`)
    .join('\n');
}

function settingsTable() {
  const rows = SETTINGS_DOC.map((s) => `| \`${s.env}\` | ${s.meaning} | ${s.shown} |`);
  return ['| Variable | Meaning | Default |', '|---|---|---|', ...rows].join('\n');
}

function replaceBetween(text, name, body) {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < 0) throw new Error(`README.md lacks the ${start} … ${end} markers`);
  return `${text.slice(0, from + start.length)}\n${body}\n${text.slice(to)}`;
}

function manifest(current) {
  // Every setting, so that the bundle can be configured fully (the HTTP ones matter to `svc-mcp http`).
  const env = Object.fromEntries(SETTINGS_DOC.map((s) => [s.env, `\${user_config.${s.key}}`]));
  const userConfig = Object.fromEntries(
    SETTINGS_DOC.map((s) => [
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
        args: [...cliNodeFlags(), '${__dirname}/dist/cli.js', 'stdio'],
        env,
      },
    },
    tools: tools.map((t) => ({ name: t.name, description: t.description.split('\n')[0] })),
    user_config: userConfig,
  };
}

/** The MCP Registry's entry: the npm package run with npx over stdio, every setting an environment variable. */
function serverJson() {
  return {
    $schema: 'https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json',
    name: 'io.github.svc-mcp/svc-mcp',
    description: 'Crypto market data as MCP tools, with a credit budget, a cache and an offline sandbox.',
    version: pkg.version,
    packages: [
      {
        registryType: 'npm',
        registryBaseUrl: 'https://registry.npmjs.org',
        identifier: pkg.name,
        version: pkg.version,
        runtimeHint: 'npx',
        transport: { type: 'stdio' },
        environmentVariables: SETTINGS_DOC.map((s) => ({
          name: s.env,
          description: `${s.meaning} (default: ${s.shown}).`,
          isRequired: false,
          ...(s.sensitive ? { isSecret: true } : {}),
          ...(s.default !== undefined ? { default: String(s.default) } : {}),
        })),
      },
    ],
  };
}

const check = process.argv.includes('--check');
const readmePath = `${root}README.md`;
const manifestPath = `${root}manifest.json`;
const readme = readFileSync(readmePath, 'utf8');
const nextReadme = ['tools', 'toolsets', 'settings'].reduce(
  (text, name) =>
    replaceBetween(text, name, { tools: toolTable, toolsets: toolsetList, settings: settingsTable }[name]()),
  readme,
);
const manifestText = readFileSync(manifestPath, 'utf8');
const nextManifest = `${JSON.stringify(manifest(JSON.parse(manifestText)), null, 2)}\n`;
const serverPath = `${root}server.json`;
const serverText = existsSync(serverPath) ? readFileSync(serverPath, 'utf8') : '';
const nextServer = `${JSON.stringify(serverJson(), null, 2)}\n`;

const stale = [
  readme !== nextReadme && 'README.md',
  manifestText !== nextManifest && 'manifest.json',
  serverText !== nextServer && 'server.json',
].filter(Boolean);
if (check) {
  if (stale.length > 0) {
    console.error(`Stale: ${stale.join(', ')}. Run \`npm run docs\` and commit the result.`);
    process.exit(1);
  }
  console.log('README.md, manifest.json and server.json match the catalog.');
} else {
  writeFileSync(readmePath, nextReadme);
  writeFileSync(manifestPath, nextManifest);
  writeFileSync(serverPath, nextServer);
  console.log(stale.length > 0 ? `Updated ${stale.join(', ')}.` : 'Nothing to update.');
}
