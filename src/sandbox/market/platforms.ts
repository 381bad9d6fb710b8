/**
 * DEX platforms: real chains with the service's short field names (spec, "DEX platform object").
 * Explorer URL formats carry placeholders in braces. The DEX counts are plausible, not live.
 */

export interface DexPlatform {
  id: number;
  n: string;
  i: string;
  uf: string;
  dn: string;
  txuf: string;
  v: boolean;
  p: boolean;
  addrUrl: string;
  chId: number;
  puf: string;
  wcId: number;
  hl: number;
  ho: number;
  pltA: string;
  cid: number;
}

/** [id, name, acronym, explorer base, DEX count, chain id, wrapped native token id, native coin id, pinned] */
const PLATFORM_TABLE: readonly [number, string, string, string, number, number, number, number, boolean][] = [
  [1, 'Ethereum', 'ETH', 'https://etherscan.io', 342, 1, 2396, 1027, true],
  [14, 'BSC', 'BSC', 'https://bscscan.com', 251, 56, 7192, 1839, true],
  [16, 'Solana', 'SOL', 'https://solscan.io', 78, 101, 5426, 5426, true],
  [199, 'Base', 'BASE', 'https://basescan.org', 164, 8453, 2396, 1027, true],
  [51, 'Arbitrum', 'ARB', 'https://arbiscan.io', 189, 42161, 2396, 11841, true],
  [3, 'Polygon', 'POLYGON', 'https://polygonscan.com', 143, 137, 3890, 28321, false],
  [28, 'Avalanche', 'AVAX', 'https://snowtrace.io', 97, 43114, 9462, 5805, false],
  [42, 'Optimism', 'OP', 'https://optimistic.etherscan.io', 71, 10, 2396, 11840, false],
  [41, 'Tron', 'TRX', 'https://tronscan.org', 18, 728126428, 11662, 1958, false],
  [173, 'TON', 'TON', 'https://tonviewer.com', 12, 607, 11419, 11419, false],
  [176, 'Sui', 'SUI', 'https://suiscan.xyz', 26, 784, 20947, 20947, false],
  [178, 'Aptos', 'APT', 'https://aptoscan.com', 17, 1, 21794, 21794, false],
  [24, 'Fantom', 'FTM', 'https://ftmscan.com', 54, 250, 10240, 3513, false],
  [12, 'Cronos', 'CRO', 'https://cronoscan.com', 46, 25, 14532, 3635, false],
  [162, 'zkSync Era', 'ZKSYNC', 'https://explorer.zksync.io', 38, 324, 2396, 1027, false],
  [195, 'Linea', 'LINEA', 'https://lineascan.build', 41, 59144, 2396, 1027, false],
  [205, 'Blast', 'BLAST', 'https://blastscan.io', 33, 81457, 2396, 1027, false],
  [180, 'Mantle', 'MNT', 'https://mantlescan.xyz', 29, 5000, 27075, 27075, false],
  [210, 'Sonic', 'S', 'https://sonicscan.org', 36, 146, 32684, 32684, false],
  [211, 'Hyperliquid', 'HYPE', 'https://hyperevmscan.io', 22, 999, 32196, 32196, false],
  [34, 'Celo', 'CELO', 'https://celoscan.io', 14, 42220, 5567, 5567, false],
  [15, 'Kava', 'KAVA', 'https://kavascan.com', 11, 2222, 4846, 4846, false],
];

export const DEX_PLATFORMS: readonly DexPlatform[] = PLATFORM_TABLE.map(
  ([id, name, acronym, explorer, dexes, chainId, wrappedId, coinId, pinned], position) => ({
    id,
    n: name,
    i: `https://sandbox.svc.invalid/static/img/platforms/${id}.png`,
    uf: `${explorer}/token/{address}`,
    dn: String(dexes),
    txuf: `${explorer}/tx/{txHash}`,
    v: true,
    p: pinned,
    addrUrl: `${explorer}/address/{address}`,
    chId: chainId,
    puf: `${explorer}/address/{poolAddress}`,
    wcId: wrappedId,
    hl: pinned ? 1 : 0,
    ho: pinned ? position + 1 : 0,
    pltA: acronym,
    cid: coinId,
  }),
);

/** A platform by name or acronym, case-insensitively. */
export function findPlatform(name: string): DexPlatform | undefined {
  const wanted = name.trim().toLowerCase();
  return DEX_PLATFORMS.find((p) => p.n.toLowerCase() === wanted || p.pltA.toLowerCase() === wanted);
}
