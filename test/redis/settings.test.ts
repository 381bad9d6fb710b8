/** The Redis and log settings as a person meets them: bad values stop start-up, naming the variable. */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

describe('Redis and log settings', () => {
  it('a bad SVC_REDIS_URL is a startup error that names it and never repeats it (it may hold a password)', async () => {
    const url = 'http://user:hunter2-secret@127.0.0.1:6379';
    const run = await runCli(['tools'], { SVC_REDIS_URL: url });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/SVC_REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
    expect(run.stderr).not.toContain('hunter2-secret');
  });

  it('a bad SVC_REDIS_PREFIX or SVC_LOG_LEVEL is a startup error saying what is allowed', async () => {
    const prefix = await runCli(['tools'], { SVC_REDIS_PREFIX: 'two words' });
    expect(prefix.code).toBe(2);
    expect(prefix.stderr).toMatch(/SVC_REDIS_PREFIX must be 1 to 64 letters, digits or \. _ : -/);
    const level = await runCli(['tools'], { SVC_LOG_LEVEL: 'loud' });
    expect(level.code).toBe(2);
    expect(level.stderr).toMatch(/SVC_LOG_LEVEL must be one of debug, info, warn, error, silent/);
  });

  it('the ledger on Redis names its address without the password', async () => {
    // Nothing listens on port 9: the usage answer says the ledger cannot be used, and where it is.
    const run = await runCli(['call', 'get_credit_usage', '--json'], {
      SVC_REDIS_URL: 'redis://:hunter2-secret@127.0.0.1:9/2',
      SVC_LOG_LEVEL: 'silent',
    });
    expect(run.code, run.stderr).toBe(0);
    const usage = JSON.parse(run.stdout);
    expect(usage.ledger).toBe('redis://127.0.0.1:9/2 (keys svc-mcp:ledger:*)');
    expect(usage.problem).toMatch(/Redis is unreachable: connect ECONNREFUSED 127\.0\.0\.1:9/);
    expect(run.stdout + run.stderr).not.toContain('hunter2-secret');
  });
});
