/**
 * stdin for the stdio transport, a line at a time. The SDK's reader skips a line that is not JSON,
 * or not a JSON-RPC message, without a word, so a host that sent one waits for an answer that never
 * comes. JSON-RPC answers such a line with a parse error (-32700, id null) or an invalid request
 * (-32600, with the line's id when it has one); the lines after it are read as before.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { isId, notAMessage } from './jsonrpc-message.js';

/**
 * Longest line kept while waiting for its end: far above any request (a tool call's arguments are
 * a few hundred bytes). A longer line is dropped and answered with a parse error.
 */
const MAX_LINE_BYTES = 4 * 1024 * 1024;

const NEWLINE = 0x0a;

export class JsonLines extends Transform {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** The rest of an overlong line is dropped up to its end. */
  private skipping = false;

  /** `reply` writes one JSON-RPC message (a parse error) for the host. */
  constructor(private readonly reply: (message: string) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      this.append(chunk.subarray(start, end));
      this.endLine();
      start = end + 1;
    }
    this.append(chunk.subarray(start));
    done();
  }

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
    const line = Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    if (this.skipping) {
      this.skipping = false;
      return;
    }
    const text = line.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.parseError('the line is not valid JSON');
      return;
    }
    const problem = notAMessage(message);
    if (problem !== undefined) {
      const id = (message as { id?: unknown } | null)?.id;
      const error = {
        code: -32600,
        message: `Invalid Request: ${problem}; send one JSON-RPC 2.0 message per line, an object with "jsonrpc": "2.0" and a "method" (or a "result" or "error").`,
      };
      this.reply(`${JSON.stringify({ jsonrpc: '2.0', id: isId(id) ? id : null, error })}\n`);
      return;
    }
    this.push(`${text}\n`);
  }

  private parseError(why: string): void {
    const error = { code: -32700, message: `Parse error: ${why}; send one JSON-RPC message per line.` };
    this.reply(`${JSON.stringify({ jsonrpc: '2.0', id: null, error })}\n`);
  }
}
