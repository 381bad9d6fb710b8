/** Texts that several parts of the server say, written once so that they say it the same way. */

/** What a cancelled call answers, whichever part noticed the cancel. */
export const CALL_CANCELLED = 'The call was cancelled.';

/** Where to look an asset up when a name given for one is not known: the free search. */
export const FIND_ASSET =
  'search_cryptocurrencies (free) finds the id, slug and symbol of an asset by its name';

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

/** Edits (insert, delete, replace, swap two letters side by side) from `a` to `b`. */
export function editDistance(a: string, b: string): number {
  // Rows of the classic table; every index read is within the rows built (length b.length + 1).
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const replace = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      let edits = Math.min(previous[j]! + 1, current[j - 1]! + 1, replace);
      // Two letters typed the wrong way round (valeu, value) are one edit.
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        edits = Math.min(edits, before[j - 2]! + 1);
      current.push(edits);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The one of `names` a mistyped `typed` most likely meant (`symbl` → symbol, `timeStart` →
 * time_start): the fewest edits, letter case and `_` aside, within a third of its length (or
 * `most`); none when nothing is that close.
 */
export function closestName(typed: string, names: readonly string[], most?: number): string | undefined {
  const plain = (name: string) => name.toLowerCase().replace(/_/g, '');
  const word = plain(typed.slice(0, 100));
  let best: { name: string; edits: number } | undefined;
  for (const name of names) {
    const edits = editDistance(word, plain(name));
    if (
      edits <= (most ?? Math.max(1, Math.floor(name.length / 3))) &&
      (best === undefined || edits < best.edits)
    )
      best = { name, edits };
  }
  return best?.name;
}
