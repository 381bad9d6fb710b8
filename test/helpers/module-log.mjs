// @ts-check
/**
 * Preloaded with `node --import` (NODE_OPTIONS): writes the URL of every module the process loads
 * to the file named by MODULE_LOG, one per line, so that a test can tell which libraries a
 * server loaded.
 */
import { register } from 'node:module';

register('./module-log-hooks.mjs', import.meta.url, { data: { file: process.env.MODULE_LOG } });
