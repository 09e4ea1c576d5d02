import { createRequire } from 'node:module';
import * as ai from 'ai';
import { describeCreateHaggle } from './create-haggle-suite.js';

// The suite under `ai` 7 (the devDependency `ai`), whose models may be specification v3 or v4.
const { version } = createRequire(import.meta.url)('ai/package.json') as { version: string };
describeCreateHaggle({ label: 'ai 7', ai, major: 7, versions: ['v3', 'v4'] }, version);
