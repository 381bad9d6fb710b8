/**
 * The key-leak check must be able to fail: the recorder really records what the CLI prints and
 * answers, and the scanner the global teardown runs finds the key when it is there.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, textOf } from '../helpers/cli.js';
import { scanForSecrets } from '../helpers/leak-scan.js';
import { recordedSince, recordMark } from '../helpers/recorder.js';
import { PERSON_KEYS, SECRET_KEY } from '../helpers/secret.js';
import { spawnMcp } from '../helpers/session.js';

describe('the recorder', () => {
  it('records a server’s stderr, its protocol messages and tool results, with the secret key set', async () => {
    const mark = recordMark();
    // Port 9 of loopback refuses connections: the call fails after its retries, with a message.
    const mcp = await spawnMcp({
      SVC_API_KEY: SECRET_KEY,
      SVC_BASE_URL: 'http://127.0.0.1:9',
      SVC_TIMEOUT_MS: '500',
    });
    try {
      await mcp.waitForStderr(/tools\n/);
      const result = await mcp.call('get_fear_and_greed_latest');
      expect(result.isError).toBe(true);
      const message = textOf(result);
      expect(message).toMatch(/could not be reached/);
      const recorded = recordedSince(mark);
      // Line by line: a server's lines may reach the recorder in chunks of their own.
      for (const line of mcp.stderr().trim().split('\n')) expect(recorded).toContain(line);
      expect(recorded).toContain('[mcp stdout] {"jsonrpc":"2.0"');
      expect(recorded).toContain(JSON.stringify(message).slice(1, -1));
      expect(recorded).not.toContain(SECRET_KEY);
    } finally {
      await mcp.close();
    }
  });

  it('records one-shot commands’ stdout and stderr', async () => {
    const mark = recordMark();
    const run = await runCli(['call', 'get_fear_and_greed_latest', '{"bogus": 1}'], {
      SVC_API_KEY: SECRET_KEY,
      SVC_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Unknown parameter "bogus"/);
    expect(recordedSince(mark)).toContain(run.stderr.trim());
    const version = await runCli(['--version']);
    expect(recordedSince(mark)).toContain(`[cli --version stdout] ${version.stdout.trim()}`);
  });

  it('a config error with the secret key set does not print the key', async () => {
    const run = await runCli(['tools'], { SVC_API_KEY: SECRET_KEY, SVC_BASE_URL: 'ftp://example.test' });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/SVC_BASE_URL/);
    expect(run.stderr).not.toContain(SECRET_KEY);
  });
});

describe('the scanner the global teardown runs', () => {
  it('finds the key in recorded text and reports nothing for clean text', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-mcp-scan-'));
    try {
      writeFileSync(join(dir, 'clean.log'), '[mcp stderr] svc-mcp on stdio\n');
      expect(scanForSecrets(dir, [SECRET_KEY])).toMatchObject({ files: 1, hits: [] });
      writeFileSync(join(dir, 'leaky.log'), `[mcp stdout] {"text":"bad key ${SECRET_KEY}"}\n`);
      const scan = scanForSecrets(dir, [SECRET_KEY]);
      expect(scan.files).toBe(2);
      expect(scan.hits).toHaveLength(1);
      expect(scan.hits[0]).toContain('leaky.log');
      expect(scan.hits[0]).not.toContain(SECRET_KEY);
      // Every line that holds one, once, the last one too when no newline ends the file.
      writeFileSync(join(dir, 'leaky.log'), `a ${SECRET_KEY}\nclean\nb ${PERSON_KEYS[0]} ${SECRET_KEY}`);
      expect(scanForSecrets(dir, [SECRET_KEY, ...PERSON_KEYS]).hits).toEqual([
        'leaky.log: a <SECRET>',
        'leaky.log: b <SECRET> <SECRET>',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
