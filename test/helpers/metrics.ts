/** Reading the Prometheus text a server serves at /metrics. */

/** The value of one sample: `name` with exactly these labels; undefined when absent. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/([a-z_]+)="([^"]*)"/g)].map(([, k, v]) => [k, v]),
    );
    const wanted = Object.entries(labels);
    if (Object.keys(found).length === wanted.length && wanted.every(([k, v]) => found[k] === v)) {
      return Number(match[3]);
    }
  }
  return undefined;
}
