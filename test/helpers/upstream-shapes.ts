/**
 * Upstream bodies in the spec's shapes and in the real service's (docs/service.md, "Answers"), and
 * the one documented structuredContent each must become. Served by the fake upstream in the tests.
 */
import { NOW } from './now.js';

/** An error answer as the service writes it: the status object only, no data, nothing charged. */
export const errorBody = (code: number | string, message: string) => ({
  status: { timestamp: NOW, error_code: code, error_message: message, elapsed: 0, credit_count: 0 },
});

export const okStatus = {
  timestamp: NOW,
  error_code: 0,
  error_message: null,
  elapsed: 10,
  credit_count: 1,
  notice: null,
};
/** The index, community and DEX form: error_code and elapsed as strings. */
export const stringStatus = {
  timestamp: NOW,
  error_code: '0',
  error_message: 'SUCCESS',
  elapsed: '7',
  credit_count: 0,
  notice: '',
};

export const btcFigures = {
  price: 97_000.5,
  volume_24h: 31_000_000_000,
  percent_change_1h: -0.2,
  percent_change_24h: 1.25,
  percent_change_7d: 4.5,
  market_cap: 1_920_000_000_000,
};
export const btcEur = {
  price: 91_000,
  volume_24h: 29_000_000_000,
  percent_change_24h: 1.1,
  market_cap: 1.8e12,
};
export const ethFigures = {
  price: 3_100,
  volume_24h: 15_000_000_000,
  percent_change_24h: -2,
  market_cap: 3.7e11,
};

/** The spec's form: quote keyed by currency, svc_rank. */
export const specAssets = [
  {
    id: 1,
    name: 'Bitcoin',
    symbol: 'BTC',
    slug: 'bitcoin',
    svc_rank: 1,
    circulating_supply: 19_800_000,
    max_supply: 21_000_000,
    last_updated: '2026-11-22T11:59:00.000Z',
    quote: {
      USD: { ...btcFigures, last_updated: '2026-11-22T11:59:00.000Z' },
      EUR: { ...btcEur, last_updated: '2026-11-22T11:59:00.000Z' },
    },
  },
  {
    id: 1027,
    name: 'Ethereum',
    symbol: 'ETH',
    slug: 'ethereum',
    svc_rank: 2,
    circulating_supply: 120_000_000,
    max_supply: null,
    last_updated: '2026-11-22T11:59:00.000Z',
    quote: { USD: { ...ethFigures, last_updated: '2026-11-22T11:59:00.000Z' } },
  },
];

/** The real v3 form: quote as an array of {id, symbol, …}, cmc_rank, tags as strings (listings). */
export const realListingsAssets = [
  {
    id: 1,
    name: 'Bitcoin',
    symbol: 'BTC',
    slug: 'bitcoin',
    cmc_rank: 1,
    num_market_pairs: 12_000,
    tags: ['mineable', 'pow'],
    circulating_supply: 19_800_000,
    max_supply: 21_000_000,
    last_updated: '2026-11-22T11:59:00.000Z',
    quote: [
      { id: 2781, symbol: 'USD', ...btcFigures, last_updated: '2026-11-22T11:59:00.000Z' },
      { id: 2790, symbol: 'EUR', ...btcEur, last_updated: '2026-11-22T11:59:00.000Z' },
    ],
  },
  {
    id: 1027,
    name: 'Ethereum',
    symbol: 'ETH',
    slug: 'ethereum',
    cmc_rank: 2,
    tags: ['smart-contracts'],
    circulating_supply: 120_000_000,
    max_supply: null,
    last_updated: '2026-11-22T11:59:00.000Z',
    quote: [{ id: 2781, symbol: 'USD', ...ethFigures, last_updated: '2026-11-22T11:59:00.000Z' }],
  },
];

/** The one documented shape of an asset: no tags, no brand rank key, quote a list by currency. */
export const expectedAssets = [
  {
    id: 1,
    name: 'Bitcoin',
    symbol: 'BTC',
    slug: 'bitcoin',
    rank: 1,
    circulating_supply: 19_800_000,
    max_supply: 21_000_000,
    last_updated: '2026-11-22T11:59:00.000Z',
    quote: [
      { currency: 'USD', ...btcFigures },
      { currency: 'EUR', ...btcEur },
    ],
  },
  {
    id: 1027,
    name: 'Ethereum',
    symbol: 'ETH',
    slug: 'ethereum',
    rank: 2,
    circulating_supply: 120_000_000,
    max_supply: null,
    last_updated: '2026-11-22T11:59:00.000Z',
    quote: [{ currency: 'USD', ...ethFigures }],
  },
];

export const constituentsUpstream = [
  {
    id: 1,
    name: 'Bitcoin',
    symbol: 'BTC',
    url: 'https://example.test/btc',
    weight: '60.5',
    priceUsd: '97000.5',
    units: '0.001',
  },
  {
    id: '1027',
    name: 'Ethereum',
    symbol: 'ETH',
    url: 'https://example.test/eth',
    weight: 39.5,
    priceUsd: 3100,
    units: 0.05,
  },
];
/** The latest value's constituents: the page link is left out. */
export const constituentsExpected = [
  {
    id: 1,
    name: 'Bitcoin',
    symbol: 'BTC',
    weight: 60.5,
    priceUsd: 97_000.5,
    units: 0.001,
  },
  {
    id: 1027,
    name: 'Ethereum',
    symbol: 'ETH',
    weight: 39.5,
    priceUsd: 3100,
    units: 0.05,
  },
];
/** A past value's constituents: which asset and how heavy. */
export const pastConstituentsExpected = [
  { symbol: 'BTC', weight: 60.5 },
  { symbol: 'ETH', weight: 39.5 },
];

export const platformUpstream = {
  id: 1,
  n: 'Ethereum',
  i: 'https://example.test/eth.png',
  uf: 'https://etherscan.io/token/{address}',
  dn: '512',
  txuf: 'https://etherscan.io/tx/{hash}',
  v: true,
  p: true,
  addrUrl: 'https://etherscan.io/address/{address}',
  chId: 1,
  puf: 'https://etherscan.io/address/{pool}',
  wcId: 2396,
  hl: 1,
  ho: 2,
  pltA: 'ETH',
  cid: 1027,
};
export const platformExpected = {
  id: 1,
  name: 'Ethereum',
  acronym: 'ETH',
  dex_count: 512,
  chain_id: 1,
  wrapped_token_id: 2396,
  visible: true,
  pinned: true,
  icon_url: 'https://example.test/eth.png',
  token_url_format: 'https://etherscan.io/token/{address}',
  transaction_url_format: 'https://etherscan.io/tx/{hash}',
  address_url_format: 'https://etherscan.io/address/{address}',
  pool_url_format: 'https://etherscan.io/address/{pool}',
};
export const solanaUpstream = { id: 16, n: 'Solana', dn: 80, pltA: 'SOL', v: true, p: false };
export const solanaExpected = {
  id: 16,
  name: 'Solana',
  acronym: 'SOL',
  dex_count: 80,
  visible: true,
  pinned: false,
};

/** The listed endpoints' §16 record, as the service writes it, and the asset it becomes. */
export const T = '2026-11-22T11:59:00.000Z';
export const btcRecord = {
  id: 1,
  name: 'Bitcoin',
  symbol: 'BTC',
  slug: 'bitcoin',
  cmc_rank: 1,
  num_market_pairs: 9000,
  circulating_supply: '19800000',
  max_supply: 21e6,
  date_added: '2013-04-28T00:00:00.000Z',
  tags: [{ slug: 'mineable', name: 'Mineable', category: 'OTHERS' }],
  platform: null,
  last_updated: T,
  quote: {
    USD: {
      price: '97000.5',
      percent_change_24h: 1.25,
      percent_change_30d: 9.5,
      market_cap: 1.92e12,
      tvl: null,
    },
  },
};
export const btcAsset = {
  id: 1,
  name: 'Bitcoin',
  symbol: 'BTC',
  slug: 'bitcoin',
  rank: 1,
  circulating_supply: 19_800_000,
  max_supply: 21e6,
  last_updated: T,
  quote: [{ currency: 'USD', price: 97_000.5, percent_change_24h: 1.25, market_cap: 1.92e12 }],
};
