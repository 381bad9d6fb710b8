/** Texts that several parts of the server say, written once so that they say it the same way. */

/** What a cancelled call answers, whichever part noticed the cancel. */
export const CALL_CANCELLED = 'The call was cancelled.';

/** The rule of an instant given in settings or flags (SVC_NOW, --now). */
export const ISO_INSTANT_RULE = 'must be an ISO 8601 instant such as 2026-11-22T12:00:00Z';

/** Why a listener could not take its port; `undefined` for an error that says it better itself. */
export function listenProblem(error: NodeJS.ErrnoException, host: string, port: number): string | undefined {
  if (error.code === 'EADDRINUSE')
    return `port ${port} is in use; choose another with --port (0 picks a free one)`;
  if (error.code === 'EACCES') return `port ${port} needs more privileges; choose one above 1023`;
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND')
    return `${host} is not an address of this machine`;
  return undefined;
}

/**
 * Something a caller sent, as a message repeats it: printable, and at most `max` characters, so
 * that an error never carries a control character or a page of input. Only the characters kept are
 * looked at, so clipping costs the same for any length of input.
 */
export function clip(text: string, max = 60): string {
  const printable = text.slice(0, max).replace(/[^\x20-\x7e]/g, '?');
  return text.length > max ? `${printable}…` : printable;
}
