import { createRequire } from 'node:module';
import type * as AiSeven from 'ai';
import * as ai from 'ai-v6';
import { describeCreateHaggle } from './create-haggle-suite.js';

// The same suite under `ai` 6 (installed beside ai 7 as the npm alias `ai-v6`: what
// `npm install ai` gives on Node 20), which takes specification v3 models only.
const { version } = createRequire(import.meta.url)('ai-v6/package.json') as { version: string };
describeCreateHaggle(
  { label: 'ai 6', ai: ai as unknown as typeof AiSeven, major: 6, versions: ['v3'] },
  version,
);
