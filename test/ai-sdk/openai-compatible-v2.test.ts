import { createRequire } from 'node:module';
import type { createOpenAICompatible as CreateOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible-v2';
import type { streamText as StreamText } from 'ai';
import { streamText } from 'ai-v6';
import { describeOpenAICompatible } from './openai-compatible-suite.js';

// The ai 6 line, what `npm install ai @ai-sdk/openai-compatible` gives on Node 20: @ai-sdk/openai-compatible
// 2 (installed beside 3 as the npm alias @ai-sdk/openai-compatible-v2), specification v3 models. The
// JSON-schema run plays fewer sessions than the ai 7 line's (haggle's choice, for the suite's time: the
// path past the package is the same server and decoder).
const { version } = createRequire(import.meta.url)('@ai-sdk/openai-compatible-v2/package.json') as {
  version: string;
};
describeOpenAICompatible({
  label: 'ai 6',
  createOpenAICompatible: createOpenAICompatible as unknown as typeof CreateOpenAICompatible,
  streamText: streamText as unknown as typeof StreamText,
  packageVersion: version,
  packageMajor: 2,
  specificationVersion: 'v3',
  structuredSessions: Math.min(20, Number(process.env.HAGGLE_AI_SDK_SESSIONS ?? 20)),
});
