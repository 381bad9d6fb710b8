/**
 * The one distinctive API key every test uses when it sets a key that is not a sandbox key.
 * The global teardown scans everything the CLI processes printed and every tool result for it.
 */
export const SECRET_KEY = 'svc-test-secret-Kq7Zr4Wx9Lm2';
