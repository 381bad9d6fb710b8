/**
 * `svc-mcp demo`: a real MCP client session against this server over stdio, on the current protocol
 * revision (2026-07-28), printing a few answers. It fails (exit 1) when no call was answered: every
 * one refused or failed, or none of its tools listed under the settings.
 */
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { VERSION } from '../version.js';

const CALLS: [string, Record<string, unknown>][] = [
  ['get_fear_and_greed_latest', {}],
  ['get_global_metrics_latest', {}],
  ['get_cryptocurrency_quotes_latest', { symbol: 'BTC,ETH' }],
  ['get_cryptocurrency_listings_latest', { limit: 5 }],
  ['get_altcoin_season_index_latest', {}],
  ['get_svc20_index_latest', {}],
];

/** Runs the session; resolves with the exit code: 0 when at least one call was answered. */
export async function runDemo(cliPath: string): Promise<number> {
  const env: Record<string, string> = { ...getDefaultEnvironment() };
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('SVC_') && value !== undefined) env[key] = value;
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'stdio'],
    env,
    stderr: 'ignore',
  });
  const client = new Client(
    { name: 'svc-mcp-demo', version: VERSION },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    console.log(
      `Connected to ${client.getServerVersion()?.name} ${client.getServerVersion()?.version} (protocol ${client.getNegotiatedProtocolVersion()}): ${tools.length} tools\n`,
    );
    let made = 0;
    let answered = 0;
    for (const [name, args] of CALLS) {
      if (!tools.some((t) => t.name === name)) continue;
      const result = await client.callTool({ name, arguments: args });
      const content = result.content as { type: string; text?: string }[];
      made++;
      if (!result.isError) answered++;
      console.log(`> ${name} ${JSON.stringify(args)}`);
      console.log(`${content.map((c) => c.text ?? '').join('\n')}\n`);
    }
    if (answered > 0) return 0;
    console.error(
      made === 0
        ? `svc-mcp: none of the demo's tools (${CALLS.map(([name]) => name).join(', ')}) is listed under these settings (SVC_TOOLSETS, SVC_PLAN).`
        : `svc-mcp: none of the ${made} calls was answered: each answer above says why.`,
    );
    return 1;
  } finally {
    await client.close();
  }
}
