// @ts-check
/**
 * Preloaded with `node --import` (NODE_OPTIONS): the process finds no SQLite, as on Node 20
 * without better-sqlite3, whatever Node runs it: `node:sqlite` is not built in and
 * better-sqlite3 is not installed.
 */
import Module from 'node:module';

const builtin = process.getBuiltinModule.bind(process);
process.getBuiltinModule = (id) => (id === 'node:sqlite' || id === 'sqlite' ? undefined : builtin(id));

// The ledger loads better-sqlite3 with require: CommonJS's resolution is where it is refused.
/** @type {any} */
const internals = Module;
const resolve = internals._resolveFilename;
internals._resolveFilename = function (request, ...rest) {
  if (request === 'better-sqlite3') {
    throw Object.assign(new Error(`Cannot find module '${request}'`), { code: 'MODULE_NOT_FOUND' });
  }
  return resolve.call(this, request, ...rest);
};
