/** Loopback: the addresses a public network cannot reach. */

/** Whether a host name or address is this machine's loopback (what a public network cannot reach). */
export function isLoopback(host: string): boolean {
  const name = host.toLowerCase();
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name === '::1' ||
    name === '[::1]' ||
    /^127(\.\d{1,3}){3}$/.test(name)
  );
}
