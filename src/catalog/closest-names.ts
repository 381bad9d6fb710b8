/**
 * The tool names closest to a mistyped one, for "did you mean": names are read as words
 * (`get_fear_greed` → get, fear, greed), a word counts when it is in the name or one typo away from
 * one of its words, and ties go to the name with the fewest edits from the whole.
 */

/** Names suggested at most. */
const MOST = 3;

/** Words every other tool name has: they say nothing about which tool was meant. */
const COMMON_WORDS = new Set(['get', 'list', 'latest']);

/** Edits (insert, delete, replace) from `a` to `b`. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const replace = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j] + 1, current[j - 1] + 1, replace));
    }
    previous = current;
  }
  return previous[b.length];
}

function wordsOf(name: string): string[] {
  return name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '' && !COMMON_WORDS.has(word));
}

function sameWord(a: string, b: string): boolean {
  return a === b || (a.length >= 4 && b.length >= 4 && editDistance(a, b) <= 1);
}

/** Up to MOST of `names` that share a word with `typed`, closest first; none when nothing does. */
export function closestNames(typed: string, names: readonly string[]): string[] {
  const words = wordsOf(typed.slice(0, 100));
  return names
    .map((name) => {
      const own = wordsOf(name);
      const shared = words.filter((word) => own.some((w) => sameWord(word, w))).length;
      return { name, shared, edits: editDistance(typed.slice(0, 100), name) };
    })
    .filter((candidate) => candidate.shared > 0)
    .sort((a, b) => b.shared - a.shared || a.edits - b.edits)
    .slice(0, MOST)
    .map((candidate) => candidate.name);
}
