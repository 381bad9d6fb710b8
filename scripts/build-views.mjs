#!/usr/bin/env node
// @ts-check
/**
 * Builds the MCP Apps views (views/*.mjs) into self-contained HTML pages, dist/views/<name>.html:
 * each view's script, lightweight-charts included, bundled and minified into the page, nothing
 * fetched at run time (hosts' content security policies forbid it). A page over VIEW_MAX_BYTES
 * fails the build. Run by `npm run build`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** What one view may weigh: a host loads it beside every answer it shows. */
export const VIEW_MAX_BYTES = 200 * 1024;
export const VIEWS = ['price', 'sentiment', 'overview'];

const root = fileURLToPath(new URL('..', import.meta.url));
const page = readFileSync(join(root, 'views', 'page.html'), 'utf8');
mkdirSync(join(root, 'dist', 'views'), { recursive: true });

for (const name of VIEWS) {
  const bundled = await build({
    entryPoints: [join(root, 'views', `${name}.mjs`)],
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    legalComments: 'inline',
    write: false,
  });
  // `</script` inside the script would end it early; the bundle never needs the literal.
  const script = bundled.outputFiles[0].text.replaceAll('</script', '<\\/script');
  const html = page.replace('/*SCRIPT*/', () => script);
  const bytes = Buffer.byteLength(html);
  if (bytes > VIEW_MAX_BYTES) {
    console.error(`views/${name}: ${bytes} bytes, over the ${VIEW_MAX_BYTES} a view may weigh`);
    process.exit(1);
  }
  writeFileSync(join(root, 'dist', 'views', `${name}.html`), html);
}
