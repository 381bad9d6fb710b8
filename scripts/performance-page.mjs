// @ts-check
/**
 * docs/performance.md, written from the benchmarks' results (tools/bench/results/*.json): for each
 * benchmark its command, and for each figure its target and its latest value on each Node version
 * it was measured on, with the date.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const INTRO = `# Performance

Speed and memory are measured by the benchmarks under \`tools/bench/\`, never by timed tests. Each
benchmark writes its figures to \`tools/bench/results/<bench>.node<major>.json\` (what was measured,
the value, the target and whether it was met, the command, the Node version and the date), and this
page is generated from those files by \`npm run docs\`; \`test/docs.test.ts\` fails when it does not
match them. To measure again: \`npm run build\`, then the benchmark's command; on Node 22 or 24,
\`npm exec --yes --package=node@22 -- node tools/bench/<bench>.mjs\`. What each benchmark does, and
how, is written at the top of its file. The figures are those of the 2-core machine the project is
developed on, which shares its cores with the load the benchmark makes: read a target as met on
such a machine when quiet.
`;

function readResults(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')));
}

function amount(value, unit) {
  const text = Math.abs(value) >= 1000 ? Math.round(value).toLocaleString('en-US') : String(value);
  return unit === '×' ? `${text}×` : `${text} ${unit}`;
}

function targetText(figure) {
  if (!figure.target) return '';
  const { most, least } = figure.target;
  return most !== undefined ? `≤ ${amount(most, figure.unit)}` : `≥ ${amount(least, figure.unit)}`;
}

function cell(figure, date) {
  if (!figure) return '';
  const met = figure.target ? (figure.met ? ', met' : ', **missed**') : '';
  return `${amount(figure.value, figure.unit)}${met} (${date})`;
}

/** One benchmark's table: a row a figure, a column a Node major version. */
function benchSection(runs) {
  const nodes = [...new Set(runs.map((r) => r.node.split('.')[0]))].sort((a, b) => a - b);
  const measures = [...new Set(runs.flatMap((r) => r.figures.map((f) => f.measure)))];
  const rows = measures.map((measure) => {
    const byNode = nodes.map((node) => {
      const run = runs.find((r) => r.node.split('.')[0] === node);
      return cell(
        run?.figures.find((f) => f.measure === measure),
        run?.date,
      );
    });
    const any = runs.flatMap((r) => r.figures).find((f) => f.measure === measure);
    return `| ${measure} | ${targetText(any)} | ${byNode.join(' | ')} |`;
  });
  return [
    `## ${runs[0].bench}`,
    '',
    `\`npm run build && ${runs[0].command}\``,
    '',
    `| Measure | Target | ${nodes.map((n) => `Node ${n}`).join(' | ')} |`,
    `|---|---|${nodes.map(() => '---').join('|')}|`,
    ...rows,
  ].join('\n');
}

function duration(seconds) {
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round(seconds % 60);
  if (minutes === 0) return `${rest} s`;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}

/** docs/testing.md's figures: `npm test` and CI on a fresh clone, from tools/bench/ci.mjs on Node 20. */
export function suiteTimes(resultsDir) {
  const run = readResults(resultsDir).find((r) => r.bench === 'ci' && r.node.startsWith('20.'));
  if (!run) return 'Not measured yet: `node tools/bench/ci.mjs`.';
  const said = (figure) =>
    `**${duration(figure.value)}** (target at most ${duration(figure.target.most)}: ${figure.met ? 'met' : '**missed**'})`;
  const suite = run.figures.find((f) => f.measure.startsWith('npm test'));
  const ci = run.figures.find((f) => f.measure.startsWith('CI '));
  return [
    `- \`npm test\` on a fresh clone: ${said(suite)}.`,
    `- CI, \`.ci/run\` on a fresh clone (\`npm ci\`, \`npm test\`, the release check, the suite on Nodes 22 and 24): ${said(ci)}.`,
    `- Measured ${run.date} by \`${run.command}\` on Node ${run.node}, ${suite.measure.split(', ').at(-1)}.`,
  ].join('\n');
}

/** The README's line: how long `npm test` and CI take, from the same figures. */
export function suiteTimeLine(resultsDir) {
  const run = readResults(resultsDir).find((r) => r.bench === 'ci' && r.node.startsWith('20.'));
  if (!run) return 'Its time is not measured yet: `node tools/bench/ci.mjs`.';
  const suite = run.figures.find((f) => f.measure.startsWith('npm test'));
  const ci = run.figures.find((f) => f.measure.startsWith('CI '));
  const cores = suite.measure.split(', ').at(-1);
  return `On ${cores} it takes about ${duration(suite.value)}, and CI (\`.ci/run\`, which adds Nodes 22 and 24) about ${duration(ci.value)} (measured ${run.date}; [testing](docs/testing.md)).`;
}

export function performancePage(resultsDir) {
  const runs = readResults(resultsDir);
  const benches = [...new Set(runs.map((r) => r.bench))];
  const sections = benches.map((bench) => benchSection(runs.filter((r) => r.bench === bench)));
  return `${INTRO}\n${sections.join('\n\n')}\n`;
}
