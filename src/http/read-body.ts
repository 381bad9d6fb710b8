/**
 * A request body read within its bounds, whichever part of the server reads one (an MCP message,
 * the sign-in's forms): at most a given size, whole within BODY_TIMEOUT_MS, else the refusal.
 */
import type { IncomingMessage } from 'node:http';
import type { HttpRefusal } from './refusal.js';

/**
 * The time a body has to arrive once its headers have. It is read before the request takes a place
 * among SVC_HTTP_MAX_REQUESTS, so a slow body holds a connection for this long and no place.
 */
export const BODY_TIMEOUT_MS = 10_000;
/**
 * An over-limit body is read and dropped up to this size (and for at most DISCARD_MS) before its
 * 413 is sent: a client still sending when the connection closes (Node's fetch, so the MCP SDK's
 * HTTP client) reports only "fetch failed" and never sees the answer.
 */
const MAX_DISCARD_BYTES = 16 * 1024 * 1024;
const DISCARD_MS = 5_000;

/**
 * A request body of at most `maxBytes`, whole within BODY_TIMEOUT_MS: its bytes, or the refusal
 * to answer (413 over the limit, once the rest has been read and dropped within its bounds so that
 * the client has finished sending when the answer comes; 408 when it is too slow).
 */
export async function readBytes(
  req: IncomingMessage,
  maxBytes: number,
): Promise<{ bytes: Buffer } | { refusal: HttpRefusal }> {
  const declared = Number(req.headers['content-length']);
  if (declared > MAX_DISCARD_BYTES) return { refusal: overLimit(maxBytes) };
  const received = await receive(req, maxBytes);
  if (received === 'slow') return { refusal: tooSlow() };
  if (received === 'over' || declared > maxBytes) return { refusal: overLimit(maxBytes) };
  return { bytes: Buffer.concat(received) };
}

function receive(req: IncomingMessage, maxBytes: number): Promise<Buffer[] | 'over' | 'slow'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let discarding: NodeJS.Timeout | undefined;
    const done = (slow = false) => {
      clearTimeout(discarding);
      clearTimeout(deadline);
      req.off('data', onData);
      req.off('end', ended);
      req.off('error', ended);
      req.off('close', ended);
      if (!slow && size <= maxBytes && req.readableEnded) return resolve(chunks);
      req.pause();
      resolve(slow && size <= maxBytes ? 'slow' : 'over');
    };
    const ended = () => done();
    const deadline = setTimeout(() => done(true), BODY_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else if (size > MAX_DISCARD_BYTES) done();
      else {
        chunks.length = 0;
        discarding ??= setTimeout(ended, DISCARD_MS);
      }
    };
    req.on('data', onData);
    req.once('end', ended);
    req.once('error', ended);
    req.once('close', ended);
  });
}

function overLimit(maxBytes: number): HttpRefusal {
  return {
    status: 413,
    message: `The request body is over the limit of ${maxBytes} bytes.`,
    headers: { connection: 'close' },
  };
}

function tooSlow(): HttpRefusal {
  return {
    status: 408,
    message: `The request body did not arrive within ${BODY_TIMEOUT_MS / 1000} s of its headers; send it whole, then wait for the answer.`,
    headers: { connection: 'close' },
  };
}
