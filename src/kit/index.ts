/** The way a tool is defined: its kinds, its plans and its toolsets. Every tool there is: ../inventory/. */

export * from './define.js';
export * from './plans.js';
export * from './toolsets.js';
