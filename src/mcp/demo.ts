/**
 * `svc-mcp demo`: a real MCP client session against this server over stdio, on the current protocol
 * revision (2026-07-28), printing a few answers.
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

export async function runDemo(cliPath: string): Promise<void> {
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
    for (const [name, args] of CALLS) {
      if (!tools.some((t) => t.name === name)) continue;
      const result = await client.callTool({ name, arguments: args });
      const content = result.content as { type: string; text?: string }[];
      console.log(`> ${name} ${JSON.stringify(args)}`);
      console.log(`${content.map((c) => c.text ?? '').join('\n')}\n`);
    }
  } finally {
    await client.close();
  }
}
