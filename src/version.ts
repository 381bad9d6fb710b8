/** The package version, read once from package.json. */
import { readFileSync } from 'node:fs';
import { packageFile } from './package-files.js';

export const VERSION: string = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')).version;
