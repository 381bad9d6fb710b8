import { defineConfig } from 'vitest/config';
import { shared } from '../../vitest.config.js';

/** The package tests, which npm run release:check runs: `vitest run --config test/dist/vitest.config.ts`. */
export default defineConfig({ test: { ...shared, include: ['test/dist/**/*.test.ts'] } });
