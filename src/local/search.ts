/**
 * search_cryptocurrencies: a name, symbol or slug fragment in, the best matching assets with their
 * ids out, answered from the cryptocurrency map (through the cache: free after the first fetch).
 * Exact symbol, slug or name matches come first, then prefixes, then fragments; within each, by
 * market-cap rank; spaces, hyphens and dots are let go ("doge coin"). A query nothing matches is
 * answered with the names close in spelling ("etherium"), marked so. Where several assets share a
 * symbol, all of them are answered, and the text says so.
 */
import { z } from 'zod';
import {
  cryptocurrencyMap,
  MAP_COLUMNS,
  type MapEntry,
  mapRow,
} from '../endpoints/cryptocurrency-reference.js';
import { lines, table } from '../format/text.js';
import { validateParams } from '../kit/arguments.js';
import { defineLocalTool, type ToolContext } from '../kit/define.js';
import { intParam, paramsObject } from '../kit/params.js';
import { clip, editDistance } from '../messages.js';

/** Control and format characters (line breaks, NUL, bidirectional overrides): no asset's name has them. */
const CONTROL_CHARACTERS = /[\p{Cc}\p{Cf}]/u;

/** Map pages read per search: the service has about ten thousand active assets. */
const MAP_PAGE = 5000;
const MAX_PAGES = 4;

const MATCH_KINDS = ['id', 'symbol', 'slug', 'name'] as const;
type MatchKind = (typeof MATCH_KINDS)[number];

const match = z.object({
  id: z.number(),
  name: z.string(),
  symbol: z.string(),
  slug: z.string(),
  rank: z.number().optional().describe('Rank by market cap'),
  platform: z.string().optional().describe('The chain a token lives on'),
  matched: z.enum(MATCH_KINDS).describe('What the query matched'),
  exact: z.boolean(),
  spelling: z.literal(true).optional().describe('Close in spelling: nothing matched the query as written'),
});
type Match = z.infer<typeof match>;

/** Every active asset in the map, page by page, through the cache and the guard. */
async function activeAssets(context: ToolContext): Promise<MapEntry[]> {
  const all: MapEntry[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const checked = validateParams(cryptocurrencyMap.input, { start: 1 + page * MAP_PAGE, limit: MAP_PAGE });
    if (!checked.ok) throw new Error(checked.message);
    const { data } = await context.fetch(cryptocurrencyMap, checked.value);
    const items = (data as { items: MapEntry[] }).items;
    all.push(...items);
    if (items.length < MAP_PAGE) break;
  }
  return all;
}

/** A name as compared: lower case, without the spaces, hyphens and dots people write or leave out. */
const squashed = (text: string) => text.toLowerCase().replace(/[\s.-]+/g, '');

/** How well an asset matches, as written or squashed: 0 exact, 1 prefix, 2 fragment; undefined for no match. */
function matchOf(a: MapEntry, q: string): { tier: number; kind: MatchKind } | undefined {
  if (/^\d+$/.test(q) && String(a.id) === q) return { tier: 0, kind: 'id' };
  // Each field as written and squashed; a query of nothing but spaces, hyphens and dots is not squashed.
  const sq = squashed(q) || q;
  const fields = (
    [
      ['symbol', a.symbol.toLowerCase()],
      ['slug', a.slug],
      ['name', a.name.toLowerCase()],
    ] as const
  ).map(([kind, value]) => [kind, value, squashed(value)] as const);
  for (const [tier, test] of [
    [0, (v: string, w: string) => v === q || w === sq],
    [1, (v: string, w: string) => v.startsWith(q) || w.startsWith(sq)],
    [2, (v: string, w: string) => v.includes(q) || w.includes(sq)],
  ] as const) {
    const hit = fields.find(([, value, plain]) => test(value, plain));
    if (hit) return { tier, kind: hit[0] };
  }
  return undefined;
}

/** An asset as a match of `kind`, sorted in `tier` (then by market-cap rank). */
function matchEntry(a: MapEntry, kind: MatchKind, tier: number, exact: boolean): Match & { tier: number } {
  return {
    id: a.id,
    name: a.name,
    symbol: a.symbol,
    slug: a.slug,
    rank: a.rank,
    ...(a.platform ? { platform: a.platform.name } : {}),
    matched: kind,
    exact,
    tier,
  };
}

/** A query long enough to be misspelt rather than short: only such a one is matched by its spelling. */
const SPELT_FROM = 5;

/**
 * The edits from a name or slug close to `q` in spelling (within one edit in four letters), the
 * fewest first; undefined when neither is that close.
 */
function spellingOf(a: MapEntry, sq: string): { edits: number; kind: MatchKind } | undefined {
  const most = Math.max(1, Math.floor(sq.length / 4));
  let best: { edits: number; kind: MatchKind } | undefined;
  for (const [kind, value] of [
    ['name', squashed(a.name)],
    ['slug', squashed(a.slug)],
  ] as const) {
    if (Math.abs(value.length - sq.length) > most) continue;
    const edits = editDistance(sq, value);
    if (edits <= most && (best === undefined || edits < best.edits)) best = { edits, kind };
  }
  return best;
}

export const searchCryptocurrencies = defineLocalTool({
  name: 'search_cryptocurrencies',
  title: 'Search assets',
  toolset: 'cryptocurrency',
  inDefault: true,
  summary:
    'Look up a coin: find its id, ticker symbol or slug from its name, or part of it; exact matches first.',
  credits: 'free (reads the cached map)',
  callsService: true,
  input: paramsObject({
    query: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .refine((q) => !CONTROL_CHARACTERS.test(q), 'must be text without control characters')
      .describe('Name, symbol or slug, or part of one.'),
    limit: intParam(1, 50, 'Matches.').default(10),
  }),
  output: z.object({
    query: z.string(),
    total: z.number().describe('Matches found, before limit'),
    matches: z.array(match).describe('Best first'),
  }),
  async data(params, context) {
    const q = params.query.toLowerCase();
    const assets = await activeAssets(context);
    const found = assets.flatMap((a) => {
      const m = matchOf(a, q);
      return m === undefined ? [] : [matchEntry(a, m.kind, m.tier, m.tier === 0)];
    });
    // Nothing matches as written: the names close in spelling, the fewest edits first.
    const sq = squashed(q);
    const spelt =
      found.length > 0 || sq.length < SPELT_FROM
        ? []
        : assets.flatMap((a) => {
            const m = spellingOf(a, sq);
            return m === undefined
              ? []
              : [{ ...matchEntry(a, m.kind, m.edits, false), spelling: true as const }];
          });
    const shown = (found.length > 0 ? found : spelt).sort(
      (x, y) =>
        x.tier - y.tier ||
        (x.rank ?? Number.POSITIVE_INFINITY) - (y.rank ?? Number.POSITIVE_INFINITY) ||
        x.id - y.id,
    );
    return {
      query: params.query,
      total: found.length,
      matches: shown.slice(0, params.limit).map(({ tier: _, ...m }) => m),
    };
  },
  summarise(data) {
    if (data.matches.length === 0) {
      return `No cryptocurrency matches "${clip(data.query, 100)}"; try a shorter fragment, the symbol or the name.`;
    }
    if (data.total === 0) {
      return lines(
        `No cryptocurrency matches "${clip(data.query, 100)}"; close in spelling, best first:`,
        table(
          MAP_COLUMNS,
          data.matches.map((m) => mapRow(m, m.platform)),
        ),
      );
    }
    const exactSymbol = data.matches.filter((m) => m.exact && m.matched === 'symbol');
    return lines(
      exactSymbol.length > 1 &&
        `${exactSymbol.length} assets share the symbol ${exactSymbol[0]?.symbol}: pass the id of the one you mean.`,
      `${data.total} match${data.total === 1 ? '' : 'es'} for "${clip(data.query, 100)}", best first:`,
      table(
        MAP_COLUMNS,
        data.matches.map((m) => mapRow(m, m.platform)),
      ),
      data.total > data.matches.length &&
        `${data.total - data.matches.length} more; raise limit or refine the query.`,
    );
  },
});
