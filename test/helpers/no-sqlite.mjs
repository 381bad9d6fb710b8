/**
 * Preloaded with `node --import` (NODE_OPTIONS): the process finds no SQLite, as on Node 20
 * without better-sqlite3, whatever Node runs it: `node:sqlite` is not built in and
 * better-sqlite3 is not installed.
 */
import Module from 'node:module';

const builtin = process.getBuiltinModule.bind(process);
process.getBuiltinModule = (id) => (id === 'node:sqlite' || id === 'sqlite' ? undefined : builtin(id));

// The ledger loads better-sqlite3 with require: CommonJS's resolution is where it is refused.
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'better-sqlite3') {
    const error = new Error(`Cannot find module '${request}'`);
    error.code = 'MODULE_NOT_FOUND';
    throw error;
  }
  return resolve.call(this, request, ...rest);
};
