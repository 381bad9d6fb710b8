/**
 * search_cryptocurrencies: from a name, symbol, slug or part of one to ids, best first, from the
 * cached cryptocurrency map (free after the first fetch); a symbol several assets share lists them
 * all and says so (served by a fake upstream, since the sandbox's symbols are unique).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data } from '../helpers/answers.js';
import { firstText } from '../helpers/cli.js';
import { startFakeUpstream } from '../helpers/fake-upstream.js';
import { startMcp } from '../helpers/in-process.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import { SECRET_KEY } from '../helpers/secret.js';
import type { Session } from '../helpers/session.js';
import { okStatus } from '../helpers/upstream-shapes.js';

type Match = {
  id: number;
  symbol: string;
  name: string;
  slug: string;
  rank?: number;
  matched: string;
  exact: boolean;
  spelling?: boolean;
};
type Found = { query: string; total: number; matches: Match[] };

const MAP = '/v1/cryptocurrency/map';

describe('on the sandbox', () => {
  let sandbox: Sandbox;
  let mcp: Session;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ rateLimit: false });
    mcp = await startMcp(sandboxEnv(sandbox));
  });
  afterAll(async () => {
    await mcp?.close();
    await sandbox?.close();
  });

  const search = async (query: string, limit?: number) => {
    const result = await mcp.call(
      'search_cryptocurrencies',
      limit === undefined ? { query } : { query, limit },
    );
    expect(result.isError, firstText(result)).toBeFalsy();
    return { found: data<Found>(result), text: firstText(result) };
  };

  it('a name, a symbol (any case), a slug or an id finds the asset, exact first', async () => {
    expect((await search('solana')).found.matches[0]).toMatchObject({
      id: 5426,
      matched: 'slug',
      exact: true,
    });
    expect((await search('Solan')).found.matches[0]).toMatchObject({
      id: 5426,
      matched: 'slug',
      exact: false,
    });
    expect((await search('Solana')).found.matches[0]).toMatchObject({ id: 5426, exact: true });
    expect((await search('sol')).found.matches[0]).toMatchObject({
      id: 5426,
      matched: 'symbol',
      exact: true,
    });
    expect((await search('usd-coin')).found.matches[0]).toMatchObject({
      id: 3408,
      matched: 'slug',
      exact: true,
    });
    expect((await search('1027')).found.matches[0]).toMatchObject({ id: 1027, matched: 'id', exact: true });
  });

  it('then prefixes, then fragments, each by market-cap rank', async () => {
    const { found } = await search('bitcoin', 5);
    expect(found.matches[0]).toMatchObject({ id: 1, exact: true });
    const rest = found.matches.slice(1);
    expect(rest.every((m) => !m.exact)).toBe(true);
    const starts = (m: Match) =>
      [m.symbol.toLowerCase(), m.slug, m.name.toLowerCase()].some((v) => v.startsWith('bitcoin'));
    const tier = rest.map((m) => (starts(m) ? 1 : 2));
    expect([...tier].sort()).toEqual(tier);
    for (const t of [1, 2]) {
      const ranks = rest.filter((_, k) => tier[k] === t).map((m) => m.rank ?? Number.POSITIVE_INFINITY);
      expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
    }
    expect(found.total).toBe(5);
    const coin = await search('coin', 3);
    expect(coin.found.total).toBeGreaterThan(3);
    expect(coin.text).toMatch(/more; raise limit or refine the query/);
    const usd = (await search('usd', 20)).found.matches;
    const prefix = usd.filter((m) => m.symbol.toLowerCase().startsWith('usd'));
    expect(usd.slice(0, prefix.length)).toEqual(prefix);
  });

  it('a name written without its space, or with one, finds it', async () => {
    expect((await search('doge coin')).found.matches[0]).toMatchObject({ symbol: 'DOGE', exact: true });
    expect((await search('shibainu')).found.matches[0]).toMatchObject({ symbol: 'SHIB', exact: true });
  });

  it('a name misspelt finds the assets close in spelling, saying so', async () => {
    const { found, text } = await search('etherium');
    expect(found.total).toBe(0);
    expect(found.matches[0]).toMatchObject({ id: 1027, matched: 'name', exact: false, spelling: true });
    expect(text).toMatch(/^No cryptocurrency matches "etherium"; close in spelling, best first:\n/);
    expect((await search('solanna')).found.matches[0]).toMatchObject({ id: 5426, spelling: true });
    // A short query is not guessed at.
    expect((await search('xrpp')).found.matches).toEqual([]);
  });

  it('says plainly when nothing matches', async () => {
    const { found, text } = await search('zzqx');
    expect(found).toEqual({ query: 'zzqx', total: 0, matches: [] });
    expect(text).toMatch(/^No cryptocurrency matches "zzqx"/);
  });

  it('reads the map once: further searches are answered from the cache and cost nothing', async () => {
    const before = sandbox.stats.byPath.get(MAP) ?? 0;
    await search('ethereum');
    await search('dogecoin');
    await search('tron');
    expect((sandbox.stats.byPath.get(MAP) ?? 0) - before).toBeLessThanOrEqual(1);
    const usage = await mcp.call('get_credit_usage');
    expect(data<{ spent: number }>(usage).spent).toBe(0);
  });
});

describe('a symbol several assets share', () => {
  const upstream = { current: undefined as Awaited<ReturnType<typeof startFakeUpstream>> | undefined };
  let mcp: Session;
  beforeAll(async () => {
    upstream.current = await startFakeUpstream();
    upstream.current.reply(MAP, {
      body: {
        status: okStatus,
        data: [
          {
            id: 9001,
            rank: 812,
            name: 'Alpha Beta Coin',
            symbol: 'ABC',
            slug: 'alpha-beta-coin',
            is_active: 1,
          },
          { id: 9002, rank: 95, name: 'Arcade Bits', symbol: 'ABC', slug: 'arcade-bits', is_active: 1 },
          { id: 9003, rank: 40, name: 'ABCD Chain', symbol: 'ABCD', slug: 'abcd-chain', is_active: 1 },
        ],
      },
    });
    mcp = await startMcp({ SVC_API_KEY: SECRET_KEY, SVC_BASE_URL: upstream.current.url });
  });
  afterAll(async () => {
    await mcp?.close();
    await upstream.current?.close();
  });

  it('lists every asset with the symbol, by rank, and asks for an id', async () => {
    const result = await mcp.call('search_cryptocurrencies', { query: 'abc' });
    const { matches } = data<Found>(result);
    expect(matches.map((m) => [m.id, m.exact])).toEqual([
      [9002, true],
      [9001, true],
      [9003, false],
    ]);
    expect(firstText(result)).toMatch(/^2 assets share the symbol ABC: pass the id of the one you mean\./);
  });
});
