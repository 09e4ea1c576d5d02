import { createRequire } from 'node:module';
import type { Engine, EngineMatcher, EngineSetup, TokenBitmask } from './engine.js';
import { SchemaRefused } from './engine.js';

// The package is a UMD bundle inside a `"type": "module"` package: only a CommonJS loader runs it.
const require = createRequire(import.meta.url);

/** Marks a refusal by abort: the module must be reloaded (see engine-worker.ts). */
export const WASM_TRAP = 'WebAssembly trap';

interface XgMatcher {
  getNextTokenBitmask(): Promise<Int32Array>;
  acceptToken(id: number): boolean;
  isTerminated(): boolean;
  dispose(): void;
}

/**
 * XGrammar's WebAssembly build on the same vocabulary, compiled in the mode MaskBench asks for: any
 * whitespace, and `strictMode` off so that properties and items the schema does not forbid are allowed,
 * as a JSON Schema validator allows them.
 */
export async function xgrammarEngine(setup: EngineSetup): Promise<Engine> {
  const xg = require('@mlc-ai/web-xgrammar');
  const { vocabulary, encodedTokens } = setup;
  const info = await xg.TokenizerInfo.createTokenizerInfo(
    [...encodedTokens],
    'byte_level',
    false,
    encodedTokens.length,
    [...vocabulary.eosTokenIds],
  );
  const compiler = await xg.GrammarCompiler.createGrammarCompiler(info, false);
  const eosTokenId = vocabulary.eosTokenIds[0] as number;
  return {
    name: 'xgrammar',
    eosTokenId,
    async compile(schema) {
      try {
        return await compiler.compileJSONSchema(JSON.stringify(schema), true, -1, undefined, false);
      } catch (error) {
        // Python's XGrammar raises on a schema it cannot convert (a regex it cannot parse, say); the
        // WebAssembly build aborts instead. Either way the schema is refused, as MaskBench counts it.
        const message = error instanceof Error ? error.message : String(error);
        const trap = (error as Error)?.name === 'RuntimeError';
        throw new SchemaRefused(trap ? `${WASM_TRAP}: ${message}` : message);
      }
    },
    async matcher(compiled): Promise<EngineMatcher> {
      const matcher: XgMatcher = await xg.GrammarMatcher.createGrammarMatcher(compiled);
      return {
        mask: (): Promise<TokenBitmask> => matcher.getNextTokenBitmask(),
        accept: (id) => matcher.acceptToken(id),
        finish: () => matcher.acceptToken(eosTokenId) && matcher.isTerminated(),
        dispose: () => matcher.dispose(),
      };
    },
    release(compiled) {
      (compiled as { dispose?: () => void }).dispose?.();
    },
  };
}
