/**
 * The time a request may take, first byte to last (SVC_HTTP_REQUEST_TIMEOUT_MS): past it, a request
 * not yet answered gets a 504 and its connection closed, an event stream under way is cut; either
 * way the closed response cancels the call and its upstream request.
 */
import type { ServerResponse } from 'node:http';
import { sendRefusal } from './respond.js';

export function requestDeadline(res: ServerResponse, timeoutMs: number): void {
  const timer = setTimeout(() => {
    if (res.headersSent) res.destroy();
    else
      sendRefusal(res, {
        status: 504,
        message: `The request did not finish within ${timeoutMs / 1000} s (SVC_HTTP_REQUEST_TIMEOUT_MS); the call was cancelled.`,
        headers: { connection: 'close' },
      });
  }, timeoutMs);
  res.once('close', () => clearTimeout(timer));
}
