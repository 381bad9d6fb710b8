/** Every tool the server has, in the order they are listed: the endpoints, then the local tools. */
import type { Tool } from '../catalog/define.js';
import { endpoints } from '../endpoints/index.js';
import { localTools } from '../local/index.js';

export const tools: readonly Tool[] = [...endpoints, ...localTools];
