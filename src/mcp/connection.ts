/**
 * What svc-mcp adds to a stdio connection's transport, in one place, between the wire and the
 * SDK's serveStdio: the requests in flight counted (the server finishes them before it exits),
 * tools/calls the SDK must not read as they are refused at the door (raw-call.ts), and the
 * server's own listeners told of each message sent and of the close. Nothing else touches the
 * wire's handlers.
 */
import type {
  CallToolResult,
  JSONRPCMessage,
  MessageExtraInfo,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/server';
import { InFlight } from './in-flight.js';
import { type RawCallProblem, rawCallProblem } from './raw-call.js';

type Id = string | number;

export interface ConnectionHooks {
  /** The answer to a call refused before the SDK reads it. */
  refuse(problem: RawCallProblem): Promise<CallToolResult>;
  /** Told of each message once the wire has taken it. */
  sent?(message: JSONRPCMessage): void;
  /** Told once the wire has closed, after the SDK. */
  closed?(): void;
}

export class Connection implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly setProtocolVersion?: (version: string) => void;
  readonly setSupportedProtocolVersions?: (versions: string[]) => void;
  /** Requests read and not yet answered. */
  readonly inFlight = new InFlight<Id>();

  constructor(
    private readonly wire: Transport,
    private readonly hooks: ConnectionHooks,
  ) {
    this.setProtocolVersion = wire.setProtocolVersion?.bind(wire);
    this.setSupportedProtocolVersions = wire.setSupportedProtocolVersions?.bind(wire);
    wire.onmessage = (message, extra) => this.receive(message, extra);
    wire.onerror = (error) => this.onerror?.(error);
    wire.onclose = () => {
      this.onclose?.();
      hooks.closed?.();
    };
  }

  start(): Promise<void> {
    return this.wire.start();
  }

  close(): Promise<void> {
    return this.wire.close();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    try {
      await this.wire.send(message, options);
    } finally {
      if (!('method' in message) && 'id' in message && message.id !== undefined)
        this.inFlight.delete(message.id);
    }
    this.hooks.sent?.(message);
  }

  private receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if ('method' in message && 'id' in message) this.inFlight.add(message.id);
    const problem = rawCallProblem(message);
    if (!problem) {
      this.onmessage?.(message, extra);
      return;
    }
    void this.hooks
      .refuse(problem)
      .then((result) => this.send({ jsonrpc: '2.0', id: problem.id, result }))
      .catch((error: unknown) => this.onerror?.(error as Error));
  }
}
