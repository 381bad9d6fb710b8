/**
 * The tools: every one the server has (the endpoints' and the local ones), and which of them
 * settings expose. What a tool is, and how one is defined, is in ../catalog/.
 */
export type { Endpoint, Tool } from '../catalog/define.js';
export { endpoints, endpointsByName } from '../endpoints/index.js';
export { tools } from './all.js';
export * from './selection.js';
