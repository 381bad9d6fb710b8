/**
 * The stdio transport: one JSON-RPC message a line, read from the input and written whole to the
 * output. Each line is parsed once, here, and handed to the server as a message. The SDK's own
 * stdio reader skips a line that is not JSON, or not a JSON-RPC message, without a word, so a host
 * that sent one waits for an answer that never comes; here JSON-RPC answers such a line with a parse
 * error (-32700, id null) or an invalid request (-32600, with the line's id when it has one), and
 * the lines after it are read as before. The end of the input does not close the transport: the
 * server finishes the requests in flight first (stdio.ts).
 */
import type { Writable } from 'node:stream';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { isId, nestingProblem, notAMessage } from './jsonrpc-message.js';

/**
 * Longest line kept while waiting for its end: far above any request (a tool call's arguments are
 * a few hundred bytes). A longer line is dropped and answered with a parse error.
 */
const MAX_LINE_BYTES = 4 * 1024 * 1024;

const NEWLINE = 0x0a;

export class JsonLinesTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** The rest of an overlong line is dropped up to its end. */
  private skipping = false;
  private closed = false;

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: Writable,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.read);
    this.input.on('error', this.failed);
    this.output.on('error', this.outputFailed);
  }

  /**
   * Resolves once the output has taken the message (it queues for stdout itself, short messages
   * first); rejects when the output is gone.
   */
  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The stdio transport is closed'));
    return new Promise((resolve, reject) => {
      this.output.write(`${JSON.stringify(message)}\n`, (error) => (error ? reject(error) : resolve()));
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.read);
    this.input.off('error', this.failed);
    this.pending = [];
    this.onclose?.();
  }

  private readonly read = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (let end = bytes.indexOf(NEWLINE); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
      this.append(bytes.subarray(start, end));
      this.endLine();
      start = end + 1;
    }
    this.append(bytes.subarray(start));
  };

  private readonly failed = (error: Error): void => {
    this.onerror?.(error);
  };

  /** The host is gone (stdout closed): nothing can be answered any more. */
  private readonly outputFailed = (error: Error): void => {
    if (this.closed) return;
    this.onerror?.(error);
    void this.close();
  };

  private append(part: Buffer): void {
    if (this.skipping || part.length === 0) return;
    this.pendingBytes += part.length;
    if (this.pendingBytes > MAX_LINE_BYTES) {
      this.pending = [];
      this.pendingBytes = 0;
      this.skipping = true;
      this.parseError(`the line is longer than ${MAX_LINE_BYTES / 1024 / 1024} MiB`);
      return;
    }
    this.pending.push(part);
  }

  private endLine(): void {
    const line = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    if (this.skipping) {
      this.skipping = false;
      return;
    }
    if (line === undefined || this.closed) return;
    const text = line.toString('utf8');
    if (text.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.parseError('the line is not valid JSON');
      return;
    }
    const problem = nestingProblem(message) ?? notAMessage(message);
    if (problem === undefined) {
      this.onmessage?.(message as JSONRPCMessage);
      return;
    }
    const id = (message as { id?: unknown } | null)?.id;
    const error = {
      code: -32600,
      message: `Invalid Request: ${problem}; send one JSON-RPC 2.0 message per line, an object with "jsonrpc": "2.0" and a "method" (or a "result" or "error").`,
    };
    this.reply({ jsonrpc: '2.0', id: isId(id) ? id : null, error });
  }

  private parseError(why: string): void {
    const error = { code: -32700, message: `Parse error: ${why}; send one JSON-RPC message per line.` };
    this.reply({ jsonrpc: '2.0', id: null, error });
  }

  /** An answer of the transport's own (the id may be null, which no SDK message type allows). */
  private reply(message: Record<string, unknown>): void {
    if (!this.closed) this.output.write(`${JSON.stringify(message)}\n`);
  }
}
