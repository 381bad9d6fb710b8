/**
 * Fetching a client ID metadata document (the `client_id` an MCP client names is an https URL): https
 * only, at most 5 s and 64 KB in all, a failure kept for a minute (so a sign-in, or a flood of
 * them, asks a failing host once), and never from loopback, private,
 * link-local or metadata-service addresses, checked after DNS resolution before anything is sent and
 * again on the socket the request goes out on. A test setting lets loopback through (never private
 * addresses); a test may also name a CA its loopback documents are served under.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { LRUCache } from 'lru-cache';
import { Agent, fetch as undiciFetch } from 'undici';

/** Longest a document may take to arrive, whole. */
const FETCH_MS = 5_000;
/** How long a document that could not be had is not asked for again (a sign-in asks twice). */
const FAILURE_MS = 60_000;
/** Largest document read. */
export const DOCUMENT_BYTES = 64 * 1024;

/** Addresses no document is fetched from: loopback, private, link-local, shared, metadata services. */
function blocked(allowLoopback: boolean): BlockList {
  const list = new BlockList();
  const v4: [string, number][] = [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['224.0.0.0', 3],
  ];
  const v6: [string, number][] = [
    ['fc00::', 7],
    ['fe80::', 10],
    ['::', 128],
    ['ff00::', 8],
  ];
  if (!allowLoopback) {
    v4.push(['127.0.0.0', 8]);
    v6.push(['::1', 128]);
  }
  for (const [net, prefix] of v4) list.addSubnet(net, prefix, 'ipv4');
  for (const [net, prefix] of v6) list.addSubnet(net, prefix, 'ipv6');
  return list;
}

function isBlocked(list: BlockList, address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return list.check(mapped, 'ipv4');
  return list.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

export interface DocumentFetch {
  /** Whether a document may be fetched from `url`: https, and every address its host resolves to allowed. */
  allowed(url: string): Promise<boolean>;
  /** fetch for oidc-provider's `fetch` setting: the guarded dispatcher, 5 s. */
  fetch(input: string | URL | Request, options?: RequestInit): Promise<Response>;
}

export function documentFetch({
  allowLoopback,
  ca,
}: {
  allowLoopback: boolean;
  ca?: string[];
}): DocumentFetch {
  const list = blocked(allowLoopback);
  const failures = new LRUCache<string, Error>({ max: 1_000, ttl: FAILURE_MS });
  const agent = new Agent({
    connect: {
      ...(ca ? { ca } : {}),
      // The address the socket goes to, checked again: DNS may answer differently the second time.
      lookup(hostname, options, callback) {
        void lookup(hostname, { all: true }).then(
          (found) => {
            const usable = found.filter((a) => !isBlocked(list, a.address));
            const [first] = usable;
            if (!first) return callback(new Error(`${hostname} resolves to no allowed address`), []);
            if ((options as { all?: boolean }).all) return callback(null, usable);
            callback(null, first.address, first.family);
          },
          (error: Error) => callback(error as NodeJS.ErrnoException, []),
        );
      },
    },
  });
  return {
    async allowed(url) {
      const parsed = URL.parse(url);
      if (parsed?.protocol !== 'https:') return false;
      const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
      const addresses = isIP(host)
        ? [host]
        : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
      return addresses.length > 0 && addresses.every((address) => !isBlocked(list, address));
    },
    async fetch(input, options) {
      const url = input instanceof Request ? input.url : String(input);
      const known = failures.get(url);
      if (known) throw known;
      try {
        const response = await undiciFetch(url, {
          ...(options as object),
          dispatcher: agent,
          signal: AbortSignal.timeout(FETCH_MS),
          redirect: 'manual',
        });
        if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
        const body = await readAtMost(response.body, DOCUMENT_BYTES, url);
        // oidc-provider checks the document fully; this first look lets a wrong one be kept as failed.
        if ((JSON.parse(body.toString('utf8')) as { client_id?: unknown })?.client_id !== url)
          throw new Error(`${url} names another client_id`);
        return new Response(body, { status: 200, headers: Object.fromEntries(response.headers) });
      } catch (error) {
        failures.set(url, error as Error);
        throw error;
      }
    },
  };
}

/** The whole body, within `limit` bytes (else an error, the rest not read). */
async function readAtMost(body: ReadableStream<Uint8Array> | null, limit: number, url: string) {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body ?? []) {
    size += chunk.length;
    if (size > limit) throw new Error(`${url} is larger than ${limit / 1024} KB`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
