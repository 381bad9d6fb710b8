/** Settings: one table, parsed with defaults, bad values refused naming the variable and the value. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, settingsDoc } from '../../src/config/index.js';

describe('loadConfig', () => {
  it('defaults', () => {
    const config = loadConfig({ SVC_STATE_DIR: '/tmp/x' });
    expect(config).toMatchObject({
      apiKey: undefined,
      keyHeader: 'X-SVC_PRO_API_KEY',
      toolsets: ['default'],
      creditBudget: undefined,
      creditWindow: 'day',
      maxCreditsPerCall: 25,
      stateDir: '/tmp/x',
      cache: true,
      resultsMaxMb: 256,
      timeoutMs: 10_000,
      now: undefined,
    });
  });

  it('reads each value; words are case-insensitive', () => {
    const config = loadConfig({
      SVC_CREDIT_BUDGET: '500',
      SVC_CREDIT_WINDOW: 'Month',
      SVC_MAX_CREDITS_PER_CALL: '5',
      SVC_CACHE: 'OFF',
      SVC_PLAN: 'Basic',
      SVC_TOOLSETS: 'Sentiment,DEX',
      SVC_NOW: '2026-11-22T23:59:00Z',
    });
    expect(config).toMatchObject({
      creditBudget: 500,
      creditWindow: 'month',
      maxCreditsPerCall: 5,
      cache: false,
      plan: 'basic',
      toolsets: ['sentiment', 'dex'],
      now: new Date('2026-11-22T23:59:00Z'),
    });
  });

  it.each([
    [
      'SVC_CREDIT_BUDGET',
      '-1',
      /SVC_CREDIT_BUDGET must be a whole number of credits from 0 to .* \(got "-1"\)/,
    ],
    ['SVC_CREDIT_BUDGET', 'lots', /SVC_CREDIT_BUDGET must be a whole number.*\(got "lots"\)/],
    ['SVC_CREDIT_WINDOW', 'week', /SVC_CREDIT_WINDOW must be one of day, month, total \(got "week"\)/],
    ['SVC_CACHE', 'maybe', /SVC_CACHE must be one of on, off/],
    [
      'SVC_TIMEOUT_MS',
      '50',
      /SVC_TIMEOUT_MS must be a whole number of milliseconds from 100 to 120000 \(got "50"\)/,
    ],
    ['SVC_NOW', 'yesterday', /SVC_NOW must be an ISO 8601 instant/],
    [
      'SVC_RESULTS_MAX_MB',
      '64',
      /SVC_RESULTS_MAX_MB must be a whole number of MB from 128 to 65536 \(got "64"\)/,
    ],
  ])('%s=%s is refused with the value and what is allowed', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it('never repeats a sensitive value: a key with a space or a control character is refused unprinted', () => {
    for (const key of ['secret value with spaces', 'tab\there', 'bell\u0007']) {
      expect(() => loadConfig({ SVC_API_KEY: key, SVC_BASE_URL: 'http://x.test' })).toThrow(
        /SVC_API_KEY must be printable ASCII with no spaces/,
      );
      try {
        loadConfig({ SVC_API_KEY: key, SVC_BASE_URL: 'http://x.test' });
      } catch (error) {
        expect((error as Error).message).not.toContain(key);
      }
    }
  });

  it('SVC_API_KEY without SVC_BASE_URL is refused, naming SVC_BASE_URL', () => {
    expect(() => loadConfig({ SVC_API_KEY: 'sandbox-basic' })).toThrow(
      /^SVC_BASE_URL is required when SVC_API_KEY is set/,
    );
  });

  it('blank values and host placeholders (a desktop host leaves them unfilled) are unset', () => {
    /** The literal `${user_config.NAME}` a host leaves when the user filled nothing in. */
    const placeholder = (name: string) => `\${user_config.${name}}`;
    expect(
      loadConfig({
        SVC_API_KEY: placeholder('api_key'),
        SVC_BASE_URL: '',
        SVC_CREDIT_BUDGET: '  ',
        SVC_PLAN: placeholder('plan'),
        SVC_TOOLSETS: '',
      }),
    ).toMatchObject({ apiKey: undefined, baseUrl: undefined, creditBudget: undefined, plan: undefined });
  });

  it("every setting's schema reads a blank or a placeholder as unset, as loadConfig does without it", () => {
    for (const s of settingsDoc()) {
      const unset = s.schema().parse(undefined);
      for (const blank of ['', '  ', `\${user_config.${s.key}}`])
        expect(s.schema().parse(blank), `${s.env}="${blank}"`).toEqual(unset);
    }
  });

  it('an unset setting reads as its default, every time and in a copy', () => {
    const config = loadConfig({ SVC_CACHE: 'off' });
    expect(config).toMatchObject({ cache: false, maxCreditsPerCall: 25, toolsets: ['default'] });
    expect(config.maxCreditsPerCall).toBe(25);
    expect({ ...config }).toEqual(loadConfig({ SVC_CACHE: 'off' }));
  });

  it('every setting is documented once, with a unique variable and manifest key', () => {
    const envs = settingsDoc().map((s) => s.env);
    const keys = settingsDoc().map((s) => s.key);
    expect(new Set(envs).size).toBe(envs.length);
    expect(new Set(keys).size).toBe(keys.length);
    for (const s of settingsDoc()) expect(s.meaning.length, s.env).toBeGreaterThan(10);
  });
});
