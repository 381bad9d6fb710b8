/**
 * The Redis and log settings as a person meets them: a bad value is refused when the settings are
 * read (the CLI then stops with it: test/cli/errors.test.ts), naming the variable and never
 * repeating a URL that may hold a password.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { creditUsage } from '../helpers/cli.js';
import { startMcp } from '../helpers/in-process.js';

describe('Redis and log settings', () => {
  it('a bad SVC_REDIS_URL is refused, naming it and never repeating it (it may hold a password)', () => {
    const url = 'http://user:hunter2-secret@127.0.0.1:6379';
    let message = '';
    try {
      loadConfig({ SVC_REDIS_URL: url });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^SVC_REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
    expect(message).not.toContain('hunter2-secret');
  });

  it('a bad SVC_REDIS_PREFIX or SVC_LOG_LEVEL is refused, saying what is allowed', () => {
    expect(() => loadConfig({ SVC_REDIS_PREFIX: 'two words' })).toThrow(
      /^SVC_REDIS_PREFIX must be 1 to 64 letters, digits or \. _ : -/,
    );
    expect(() => loadConfig({ SVC_LOG_LEVEL: 'loud' })).toThrow(
      /^SVC_LOG_LEVEL must be one of debug, info, warn, error, silent/,
    );
  });

  it('the ledger on Redis names its address without the password', async () => {
    // Nothing listens on port 9: the usage answer says the ledger cannot be used, and where it is.
    const mcp = await startMcp({
      SVC_REDIS_URL: 'redis://:hunter2-secret@127.0.0.1:9/2',
      SVC_LOG_LEVEL: 'silent',
    });
    try {
      const result = await mcp.call('get_credit_usage', { format: 'json' });
      const usage = await creditUsage(mcp);
      expect(usage.ledger).toBe('redis://127.0.0.1:9/2 (keys svc-mcp:ledger:*)');
      expect(usage.problem).toMatch(/Redis is unreachable: connect ECONNREFUSED 127\.0\.0\.1:9/);
      expect(JSON.stringify(result)).not.toContain('hunter2-secret');
    } finally {
      await mcp.close();
    }
  });
});
