/**
 * Files of the package that the server reads or starts at run time, by their path from the
 * package's root. This module sits one folder below the root both as a source (src/) and built
 * (every file of the bundle is directly in dist/; scripts/build.mjs refuses any other layout), so
 * one relative address finds the root from either.
 */
const ROOT = new URL('../', import.meta.url);

/** The file at `path` from the package's root (`dist/views/price.html`). */
export function packageFile(path: string): URL {
  return new URL(path, ROOT);
}
