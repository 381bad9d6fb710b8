/**
 * stdout for the stdio transport, short messages first. The transport writes each message whole,
 * as it is ready; the host reads the pipe at its own pace. Under a burst of large answers (500
 * calls, 90 MB of results) megabytes wait in stdout's buffer, and a `ping` answer, a progress
 * notification or a quick refusal written behind them waits a second or more for the host to read
 * what is ahead. Here only a little is handed to stdout at a time, and a short message waiting
 * goes before a long one. JSON-RPC answers may arrive in any order; messages of one kind keep
 * theirs.
 */
import { Writable } from 'node:stream';

/** A message under this many characters (a ping's answer, a notification, an error) goes first. */
const SHORT_CHARS = 4096;
/** What stdout may hold unsent before the next message waits: about one pipe's worth. */
const AHEAD_BYTES = 64 * 1024;

export class ShortFirstOutput extends Writable {
  private readonly short: string[] = [];
  private readonly long: string[] = [];
  private readonly emptied = new Set<() => void>();

  constructor(private readonly out: NodeJS.WriteStream) {
    super({ decodeStrings: false });
    out.on('drain', () => this.pump());
    out.on('error', (error) => this.destroy(error));
  }

  override _write(chunk: string | Buffer, _encoding: BufferEncoding, done: (error?: Error) => void): void {
    const message = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    (message.length < SHORT_CHARS ? this.short : this.long).push(message);
    this.pump();
    done();
  }

  /** Resolves once every message written so far is handed to stdout and stdout has sent it. */
  async flushed(): Promise<void> {
    if (this.destroyed) return;
    if (this.short.length + this.long.length > 0) {
      await new Promise<void>((resolve) => this.emptied.add(resolve));
      // Woken because stdout went away: there is nothing left to wait for.
      if (this.destroyed) return;
    }
    await new Promise<void>((resolve) => this.out.write('', () => resolve()));
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    // stdout is gone (the host closed the pipe): nothing more will be sent.
    this.short.length = 0;
    this.long.length = 0;
    this.wakeFlushWaiters();
    done(error);
  }

  private pump(): void {
    while (this.out.writableLength < AHEAD_BYTES) {
      const next = this.short.shift() ?? this.long.shift();
      if (next === undefined) break;
      this.out.write(next);
    }
    if (this.short.length + this.long.length === 0) this.wakeFlushWaiters();
  }

  private wakeFlushWaiters(): void {
    for (const wake of this.emptied) wake();
    this.emptied.clear();
  }
}
