/** What an HTTP request is refused with, whichever part of the server refuses it. */

/** A request refused: its HTTP status, a message for the client and its JSON-RPC error code. */
export interface HttpRefusal {
  status: number;
  message: string;
  /** -32000 (a server error) unless the request itself was invalid. */
  code?: number;
  /** The JSON-RPC error's data, where its code defines one. */
  data?: unknown;
  /** The id of the request refused, where it was read; null otherwise. */
  id?: string | number;
  headers?: Record<string, string>;
}
