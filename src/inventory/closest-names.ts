/**
 * The tool names closest to a mistyped one, for "did you mean": names are read as words
 * (`get_fear_greed` → get, fear, greed), a word counts when it is in the tool's name or title
 * (`get_news` finds "Latest news and articles") or one typo away from one of their words, and ties
 * go to a preferred name (one the server lists), then to the fewest edits from the whole.
 */

import { editDistance } from '../messages.js';

/** Names suggested at most. */
const MOST = 3;

/** Words every other tool name or title has: they say nothing about which tool was meant. */
const COMMON_WORDS = new Set(['get', 'list', 'latest', 'and', 'of', 'the', 'a', 'by', 'on']);

/** A tool as the search reads it: its name, and its title's words too. */
export interface NamedTool {
  name: string;
  title?: string;
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

/**
 * Up to MOST of `tools` that share a word with `typed`, closest first (`preferred` names before
 * others that share as many words); none when nothing does.
 */
export function closestNames(
  typed: string,
  tools: readonly NamedTool[],
  preferred: ReadonlySet<string> = new Set(),
): string[] {
  const words = wordsOf(typed.slice(0, 100));
  return tools
    .map(({ name, title = '' }) => {
      const own = [...wordsOf(name), ...wordsOf(title)];
      const shared = words.filter((word) => own.some((w) => sameWord(word, w))).length;
      return { name, shared, preferred: preferred.has(name), edits: editDistance(typed.slice(0, 100), name) };
    })
    .filter((candidate) => candidate.shared > 0)
    .sort((a, b) => b.shared - a.shared || Number(b.preferred) - Number(a.preferred) || a.edits - b.edits)
    .slice(0, MOST)
    .map((candidate) => candidate.name);
}
