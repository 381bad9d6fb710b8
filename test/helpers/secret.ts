/**
 * The one distinctive API key every test uses when it sets a key that is not a sandbox key, and the
 * keys of the people who sign in with their own (own-key sign-in; the test sandbox accepts them).
 * The global teardown scans everything the CLI processes printed and every tool result for each.
 */
export const SECRET_KEY = 'svc-test-secret-Kq7Zr4Wx9Lm2';
export const PERSON_KEYS = ['svc-person-ana-Hw8Tq2Zp5Nc', 'svc-person-ben-Rm5Vx7Lc3Jd'] as const;
export const SECRETS: readonly string[] = [SECRET_KEY, ...PERSON_KEYS];
