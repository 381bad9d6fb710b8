/**
 * Whether the tool list lets a model pick the right tool: each question of
 * test/fixtures/questions.tsv, worded as people ask, is ranked against the default tools/list by
 * BM25 over name, title and description (MiniSearch's BM25+), and the tool that answers it must come
 * in the top three for at least 90% of the questions and first for at least 75%. The misses and
 * the pairs of tools most often confused are printed, so that a description can say what it lacks.
 */
import { readFileSync } from 'node:fs';
import MiniSearch from 'minisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InProcessSession, openInProcess } from '../helpers/in-process.js';

const QUESTIONS = readFileSync(new URL('../fixtures/questions.tsv', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [question = '', tool = ''] = line.split('\t');
    return { question, tool };
  });

let session: InProcessSession;

beforeAll(async () => {
  session = await openInProcess();
});
afterAll(async () => {
  await session?.close();
});

/** The listed tools, best first, for a question. */
function ranker(tools: { name: string; title?: string; description?: string }[]) {
  const index = new MiniSearch({ fields: ['name', 'title', 'description'], idField: 'name' });
  index.addAll(tools);
  return (question: string) => index.search(question).map((hit) => String(hit.id));
}

describe('picking the right tool from the default list', () => {
  it('has at least 80 questions, each answered by a listed tool', () => {
    const listed = new Set(session.tools.map((t) => t.name));
    expect(QUESTIONS.length).toBeGreaterThanOrEqual(80);
    for (const { question, tool } of QUESTIONS) expect(listed.has(tool), `${question} → ${tool}`).toBe(true);
    // Every listed tool is asked about.
    expect([...listed].filter((name) => !QUESTIONS.some((q) => q.tool === name))).toEqual([]);
  });

  it('BM25 puts the right tool in the top three for 90% of the questions and first for 75%', () => {
    const rank = ranker(session.tools);
    const misses: string[] = [];
    const confused = new Map<string, number>();
    let first = 0;
    let top3 = 0;
    for (const { question, tool } of QUESTIONS) {
      const ranked = rank(question);
      if (ranked[0] === tool) first++;
      if (ranked.slice(0, 3).includes(tool)) top3++;
      if (ranked[0] !== tool) {
        misses.push(
          `${question} → ${tool}, ranked ${ranked.indexOf(tool) + 1 || 'none'}; first: ${ranked[0]}`,
        );
        const pair = `${tool} ↔ ${ranked[0]}`;
        confused.set(pair, (confused.get(pair) ?? 0) + 1);
      }
    }
    const pairs = [...confused].sort((a, b) => b[1] - a[1]).slice(0, 8);
    console.log(
      `tool choice: first ${first}/${QUESTIONS.length}, top 3 ${top3}/${QUESTIONS.length}\n` +
        `misses:\n  ${misses.join('\n  ')}\nconfused most:\n  ${pairs.map(([p, n]) => `${n}× ${p}`).join('\n  ')}`,
    );
    expect(top3 / QUESTIONS.length).toBeGreaterThanOrEqual(0.9);
    expect(first / QUESTIONS.length).toBeGreaterThanOrEqual(0.75);
  });
});
