/** The catalog: every tool the server has (all.ts), and the way a tool is defined. */

export * from './all.js';
export * from './define.js';
export * from './define.js';
export * from './plans.js';
export * from './selection.js';
export * from './toolsets.js';
