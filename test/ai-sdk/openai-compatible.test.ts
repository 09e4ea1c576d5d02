import { createRequire } from 'node:module';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { streamText } from 'ai';
import { describeOpenAICompatible } from './openai-compatible-suite.js';

// The ai 7 line: @ai-sdk/openai-compatible 3, specification v4 models.
const { version } = createRequire(import.meta.url)('@ai-sdk/openai-compatible/package.json') as {
  version: string;
};
describeOpenAICompatible({
  label: 'ai 7',
  createOpenAICompatible,
  streamText,
  packageVersion: version,
  packageMajor: 3,
  specificationVersion: 'v4',
  structuredSessions: Number(process.env.HAGGLE_AI_SDK_SESSIONS ?? 50),
});
