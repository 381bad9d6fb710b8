/**
 * Which MCP requests the HTTP transport takes: at most SVC_HTTP_MAX_REQUESTS messages at once (each
 * message of a batch counts), none once it is stopping; the rest are told to retry (503 with
 * Retry-After). It also knows which requests are being answered, so that a stop can wait for them.
 */
import type { ServerResponse } from 'node:http';
import type { HttpRefusal } from '../../http/refusal.js';
import { InFlight } from '../in-flight.js';

/** What a busy or stopping server asks a client to wait before trying again, in seconds. */
const RETRY_AFTER_SECONDS = '1';

export class Admission {
  private readonly answering = new InFlight<ServerResponse>();
  private messages = 0;
  private stopping = false;

  constructor(private readonly maxMessages: number) {}

  /** Whether the server takes one more request now: a refusal, or undefined to go on. */
  refusal(): HttpRefusal | undefined {
    return this.stopping ? stoppingRefusal() : this.tooBusy(1);
  }

  /** The request is taken: it counts, as one message, until its answer is closed. */
  take(res: ServerResponse): { batch(size: number): HttpRefusal | undefined } {
    this.answering.add(res);
    let counted = 1;
    this.messages += counted;
    res.once('close', () => {
      this.answering.delete(res);
      this.messages -= counted;
    });
    return {
      /** The body is a batch of `size` messages: each counts, or the request is refused. */
      batch: (size) => {
        const busy = this.tooBusy(size - 1);
        if (busy) return busy;
        this.messages += size - 1;
        counted = size;
        return undefined;
      },
    };
  }

  /** Refuse what comes from now on; the requests taken go on. */
  stop(): void {
    this.stopping = true;
  }

  get stopped(): boolean {
    return this.stopping;
  }

  /** Resolves once every request taken is answered, or after `timeoutMs`. */
  drained(timeoutMs: number): Promise<void> {
    return this.answering.drained(timeoutMs);
  }

  private tooBusy(more: number): HttpRefusal | undefined {
    if (this.messages + more <= this.maxMessages) return undefined;
    return {
      status: 503,
      message: `The server is answering ${this.maxMessages} messages already (SVC_HTTP_MAX_REQUESTS; each message of a batch counts); retry in a moment.`,
      headers: { 'retry-after': RETRY_AFTER_SECONDS },
    };
  }
}

export function stoppingRefusal(): HttpRefusal {
  return {
    status: 503,
    message: 'The server is shutting down; retry in a moment (or on another replica).',
    headers: { 'retry-after': RETRY_AFTER_SECONDS, connection: 'close' },
  };
}
