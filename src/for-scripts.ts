/**
 * The build's second entry, dist/for-scripts.js: what the repository's own scripts, benchmarks
 * and tests load from the build (the generated docs and tool list, the benchmarks of the sandbox,
 * the cache and the stores, the ledger in a process of its own). The CLI never loads it, and the
 * package leaves it out.
 */
export { RedisCacheStore } from './cache/redis-store.js';
export { plansText, TOOLSETS } from './catalog/index.js';
export { loadConfig, settingsDoc } from './config/index.js';
export { formatDuration } from './format/text.js';
export { RedisLedger } from './guard/redis-ledger.js';
export { loadSqlite } from './guard/sqlite.js';
export { SqliteLedger } from './guard/sqlite-ledger.js';
export { ICON } from './icon.js';
export { listingFor } from './mcp/listing.js';
export { toolDefinition } from './mcp/tools.js';
export { SILENT_LOG } from './ops/logs.js';
export { RedisConnection } from './redis.js';
export { assetBySymbol, tokenAddress } from './sandbox/market/assets.js';
export { startSandbox } from './sandbox/server.js';
export { tools } from './tools/index.js';
