/**
 * The build's second entry, dist/for-scripts.js: what the repository's own scripts, benchmarks and
 * tests load from the build, in groups that each load when asked for, so that a process loads only
 * the group it uses (the ledger's crash tests start several processes that need the ledger alone).
 * The CLI never loads this entry, and the package leaves it out.
 */

/** The generated docs and tool list (scripts/gen-docs.mjs). */
export async function forDocs() {
  const [
    kit,
    { tools },
    config,
    { formatDuration },
    { ICON },
    { toolDefinition },
    { listingFor },
    { columnsOfSchema },
    { tablePrefix },
  ] = await Promise.all([
    import('./kit/index.js'),
    import('./inventory/tools.js'),
    import('./config/index.js'),
    import('./format/text.js'),
    import('./icon.js'),
    import('./mcp/listed-schemas.js'),
    import('./mcp/listing.js'),
    import('./kept/schema-columns.js'),
    import('./kept/names.js'),
  ]);
  const { plansText, TOOLSETS } = kit;
  const { loadConfig, settingsDoc } = config;
  return {
    plansText,
    TOOLSETS,
    tools,
    loadConfig,
    settingsDoc,
    formatDuration,
    ICON,
    toolDefinition,
    listingFor,
    columnsOfSchema,
    tablePrefix,
  };
}

/** The SQLite ledger, and the SQLite this Node has. */
export async function forLedger() {
  const [{ SqliteLedger }, { loadSqlite }] = await Promise.all([
    import('./guard/sqlite-ledger.js'),
    import('./guard/sqlite.js'),
  ]);
  return { SqliteLedger, loadSqlite };
}

/** The sandbox, the tools, and the sandbox's assets. */
export async function forSandbox() {
  const [{ startSandbox }, { tools }, { assetBySymbol, tokenAddress }] = await Promise.all([
    import('./sandbox/server.js'),
    import('./inventory/tools.js'),
    import('./sandbox/market/assets.js'),
  ]);
  return { startSandbox, tools, assetBySymbol, tokenAddress };
}

/** The Redis connection and the stores on it. */
export async function forRedis() {
  const [{ RedisConnection }, { RedisLedger }, { RedisCacheStore }, { SILENT_LOG }] = await Promise.all([
    import('./redis.js'),
    import('./guard/redis-ledger.js'),
    import('./cache/redis-store.js'),
    import('./ops/logs.js'),
  ]);
  return { RedisConnection, RedisLedger, RedisCacheStore, SILENT_LOG };
}
