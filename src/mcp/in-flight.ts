/**
 * Requests a transport has received and not yet answered, so that a server can finish them before
 * it exits (a host that closes stdin right after its last request still gets every answer).
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

type Id = string | number;

export interface InFlight {
  readonly size: number;
  /** Resolves once every request received so far is answered, or after `timeoutMs`. */
  drained(timeoutMs: number): Promise<void>;
}

/** Wrap a connected transport's `onmessage` and `send` to count the requests in flight. */
export function trackInFlight(transport: Transport): InFlight {
  const pending = new Set<Id>();
  const waiters = new Set<() => void>();
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if ('method' in message && 'id' in message) pending.add(message.id);
    receive?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    try {
      await send(message, options);
    } finally {
      if (
        !('method' in message) &&
        'id' in message &&
        message.id !== undefined &&
        pending.delete(message.id) &&
        pending.size === 0
      ) {
        for (const wake of waiters) wake();
      }
    }
  };
  return {
    get size() {
      return pending.size;
    },
    drained(timeoutMs) {
      if (pending.size === 0) return Promise.resolve();
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        waiters.add(done);
      });
    },
  };
}
