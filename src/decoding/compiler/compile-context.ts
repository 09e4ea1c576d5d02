import type { DynamicIds } from '../grammar/dynamic-ids.js';
import type { LiteralLeaf } from '../grammar/literal-leaf.js';
import type { GrammarNode } from '../grammar/nodes.js';
import type { CompileBudget } from '../schema/compile-budget.js';
import type { PatternCache } from './pattern-cache.js';

/**
 * What the per-type compilers (compile-string, compile-number, compile-array, compile-object) ask of the
 * schema compiler: its settings, node construction, and compiling a sub-schema. `SchemaCompiler`
 * implements it; an interface in a file of its own so that the per-type compilers and the compiler that
 * calls them do not import each other.
 */
export interface CompileContext {
  readonly maxFractionDigits: number;
  readonly maxDigits: number;
  readonly numberSyntax: 'plain' | 'json';
  readonly propertyOrder: 'schema' | 'any';
  readonly additionalPropertiesDefault: 'forbid' | 'allow';
  readonly budget: CompileBudget;
  /** The compiler's automata by pattern (shared by the grammars of one `GrammarCompiler`). */
  readonly patterns: PatternCache;
  /** Ids for nodes the grammar makes while decoding (one counter per grammar). */
  readonly dynamicIds: DynamicIds;
  /** Registers a node made with the next id. */
  add<T extends GrammarNode>(make: (id: number) => T): T;
  literal(text: string): LiteralLeaf;
  sequence(parts: GrammarNode[]): GrammarNode;
  choice(options: GrammarNode[]): GrammarNode;
  /** `text` with optional whitespace before and after (flexible mode). */
  punctuation(text: string, before: boolean, after: boolean): GrammarNode;
  compile(schema: unknown, path: string, collect: boolean): GrammarNode;
  /** Any JSON value (one shared node). */
  any(): GrammarNode;
}
