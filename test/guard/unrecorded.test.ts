/**
 * Without a budget, calls go on when the ledger cannot be written, uncounted: the server says so
 * once on stderr (a log line at warn, which stdio shows), not once a call, and never silently.
 */
import { expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { startMcp } from '../helpers/in-process.js';

it('a ledger that cannot be written is warned about once, and the calls are answered', async () => {
  const mcp = await startMcp({ SVC_STATE_DIR: '/proc/svc-mcp-cannot-be-made' });
  try {
    for (let i = 0; i < 3; i++) {
      const result = await mcp.call('get_fear_and_greed_historical', { start: i + 1, limit: 1 });
      expect(result.isError, textOf(result)).toBeFalsy();
    }
    const stderr = await mcp.waitForStderr(/cannot be written/);
    const warnings = stderr.split('\n').filter((line) => line.includes('cannot be written'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('"level":"warn"');
    expect(warnings[0]).toContain('/proc/svc-mcp-cannot-be-made');
    expect(warnings[0]).toContain('calls go on without being counted');
  } finally {
    await mcp.close();
  }
});
