// @ts-check
/**
 * The packages the build leaves out of dist/ (esbuild's `external`): loaded from node_modules at
 * run time, so the npm package and the desktop bundle install them. A name ending in `/*` is a scope.
 */
export const EXTERNAL = ['better-sqlite3', 'ioredis', 'pino', '@opentelemetry/*', 'jose', 'oidc-provider'];

/** Whether the package `name` is one the build leaves external. */
export function isExternal(name) {
  return EXTERNAL.some((external) =>
    external.endsWith('/*') ? name.startsWith(external.slice(0, -1)) : name === external,
  );
}
