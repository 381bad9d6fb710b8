/** The MCP server on stdio: a one-line banner on stderr, protocol only on stdout, a clean exit when stdin closes. */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Config } from '../config.js';
import { openDataSource } from '../upstream/source.js';
import { VERSION } from '../version.js';
import { createServer } from './server.js';

export async function runStdio(config: Config): Promise<void> {
  const opening = openDataSource(config);
  const server = createServer(config, opening);
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await server.close().catch(() => {});
    await (await opening).close().catch(() => {});
    process.exit(0);
  };
  process.stdin.once('end', shutdown);
  process.stdin.once('close', shutdown);
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  await server.connect(new StdioServerTransport());
  const source = await opening;
  source.client.warm();
  const { exposedTools } = await import('./tools.js');
  const count = exposedTools(config).endpoints.size;
  process.stderr.write(`svc-mcp ${VERSION} on stdio · data: ${source.label} · ${count} tools\n`);
}
