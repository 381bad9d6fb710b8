/** DEX platforms: the blockchains the service tracks decentralised exchanges on. */
import { z } from 'zod';
import { lines, table } from '../format/text.js';
import { perCall } from '../kit/credits.js';
import { dataOf, defineEndpoint, parseBody } from '../kit/define.js';
import { lenient } from '../kit/lenient.js';
import { paramsObject } from '../kit/params.js';
import { ALL_PLANS } from '../kit/plans.js';

const platform = z.object({
  id: z.number(),
  name: z.string(),
  acronym: z.string().optional(),
  dex_count: z.number().optional().describe('DEXs on the platform'),
  chain_id: z.number().optional(),
  wrapped_token_id: z.number().optional(),
  visible: z.boolean().optional(),
  pinned: z.boolean().optional(),
  icon_url: z.string().optional(),
  token_url_format: z.string().optional().describe('Explorer URL, {placeholders} in braces'),
  transaction_url_format: z.string().optional(),
  address_url_format: z.string().optional(),
  pool_url_format: z.string().optional(),
});
/** The service's short field names (n, pltA, dn, …) as documented in the spec. */
const upstreamPlatform = lenient(platform, {
  name: 'n',
  acronym: 'pltA',
  dex_count: 'dn',
  chain_id: 'chId',
  wrapped_token_id: 'wcId',
  visible: 'v',
  pinned: 'p',
  icon_url: 'i',
  token_url_format: 'uf',
  transaction_url_format: 'txuf',
  address_url_format: 'addrUrl',
  pool_url_format: 'puf',
});

const PLATFORM_CREDITS = perCall(1, { text: '1 per call (not documented)' });

export const dexPlatforms = defineEndpoint({
  name: 'list_dex_platforms',
  rowName: 'platform',
  title: 'DEX platforms',
  toolset: 'dex',
  inDefault: true,
  path: '/v1/dex/platform/list',
  summary:
    'Which blockchains (networks) have decentralized exchanges (DEX): each chain and how many DEXes it has.',
  input: paramsObject({}),
  output: z.object({ items: z.array(platform) }),
  rows: { list: 'items' },
  credits: PLATFORM_CREDITS,
  refreshSeconds: 3600,
  plans: ALL_PLANS,
  normalise(body) {
    // Documented as a bare array, observed wrapped in {data, status}: dataOf takes both.
    return { items: parseBody(z.array(upstreamPlatform), dataOf(body)) };
  },
  summarise(data) {
    const byDexes = [...data.items].sort((a, b) => (b.dex_count ?? 0) - (a.dex_count ?? 0));
    return lines(
      `${data.items.length} DEX platforms, most DEXs first:`,
      table(
        ['Platform', 'Acronym', 'DEXs', 'Id'],
        byDexes.map((p) => [p.name, p.acronym ?? '-', String(p.dex_count ?? '?'), String(p.id)]),
      ),
    );
  },
});

export const dexPlatform = defineEndpoint({
  name: 'get_dex_platform',
  title: 'DEX platform detail',
  toolset: 'dex',
  inDefault: true,
  path: '/v1/dex/platform/detail',
  summary:
    "One blockchain's decentralized exchange (DEX) platform: its id, DEX count and block explorer links.",
  input: paramsObject({
    platformName: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9 ._()-]{0,63}$/, {
        message:
          'must be a platform name from list_dex_platforms: up to 64 letters, digits, spaces and . _ - ( ), e.g. "Solana"',
      })
      .describe('Name from list_dex_platforms, e.g. Solana.'),
  }),
  output: platform,
  credits: PLATFORM_CREDITS,
  refreshSeconds: 3600,
  plans: ALL_PLANS,
  normalise(body) {
    return parseBody(upstreamPlatform, dataOf(body));
  },
  summarise(p) {
    return lines(
      `${p.name}${p.acronym ? ` (${p.acronym})` : ''}: ${p.dex_count ?? '?'} DEX${p.dex_count === 1 ? '' : 's'}, platform id ${p.id}${p.chain_id !== undefined ? `, chain id ${p.chain_id}` : ''}`,
      p.token_url_format && `Token explorer: ${p.token_url_format}`,
      p.transaction_url_format && `Transaction explorer: ${p.transaction_url_format}`,
      p.pool_url_format && `Pool explorer: ${p.pool_url_format}`,
    );
  },
});
