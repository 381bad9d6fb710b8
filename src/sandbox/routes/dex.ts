/** The DEX platforms: the list, and one by name. */

import { clip } from '../../messages.js';
import { badRequest } from '../envelope.js';
import { DEX_PLATFORMS, findPlatform } from '../market/platforms.js';
import type { dex as endpoints } from '../service/index.js';
import type { HandlerOf } from './types.js';

const PLATFORMS_JSON = JSON.stringify(DEX_PLATFORMS);

/** Bare answers (spec): the platform array or object without a {data, status} wrapper. */
export const dexPlatforms: HandlerOf<typeof endpoints.dexPlatforms> = {
  envelope: 'bare',
  handle() {
    return { dataJson: PLATFORMS_JSON, items: DEX_PLATFORMS.length };
  },
};

export const dexPlatform: HandlerOf<typeof endpoints.dexPlatform> = {
  envelope: 'bare',
  handle({ params }) {
    const name = params.platformName;
    const platform = findPlatform(name);
    if (!platform) {
      throw badRequest(
        `Invalid value for "platformName": "${clip(name, 100)}" is not a known platform. Known platforms: ${DEX_PLATFORMS.map((p) => p.n).join(', ')}.`,
      );
    }
    return { dataJson: JSON.stringify(platform), items: 1 };
  },
};
