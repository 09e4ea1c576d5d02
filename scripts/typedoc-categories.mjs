// A TypeDoc plugin (typedoc.json's `plugin`): every export of a module gets the category of the layer
// folder it is written in (src/agent -> Agent, src/simulation/metrics -> Metrics, ...), and every error
// class the category Errors, unless its comment names one with `@category`. A module page then reads
// by layer (agent, backends, simulation, ..., errors last) rather than as one alphabetical list per kind,
// where NegotiationAgent sat among twenty error classes. Derived from the path, so a new export is filed
// without a tag.
import { Comment, CommentTag, Converter, ReflectionKind } from 'typedoc';

/** Folder under src/ (or src/<layer>/<sub>) -> category; the order is typedoc.json's categoryOrder. */
const CATEGORIES = {
  agent: 'Agent',
  baselines: 'Baselines',
  backends: 'Backends',
  'backends/openai': 'Backends',
  contract: 'Contract',
  rules: 'Rules',
  prompt: 'Prompt',
  simulation: 'Simulation',
  'simulation/metrics': 'Metrics',
  node: 'Simulation',
  evaluation: 'Evaluation',
  'evaluation/analysis': 'Analysis',
  'multi-issue': 'Multi-issue game',
  env: 'Training environments',
  report: 'Report',
  decoding: 'Decoding',
  onnx: 'ONNX backend',
  server: 'Server',
  testing: 'Testing',
  'ai-sdk': 'AI SDK',
  internal: 'Utilities',
};

/** @param {import('typedoc').Application} app */
export function load(app) {
  /** @type {Map<import('typedoc').DeclarationReflection, string>} */
  const filed = new Map();
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
    // Exports of a module only: the modules themselves (the project's children) stay one list.
    if (reflection.kindOf(ReflectionKind.Module)) return;
    if (!reflection.parent?.kindOf(ReflectionKind.Module | ReflectionKind.Project)) return;
    const file = context.getSymbolFromReflection(reflection)?.declarations?.[0]?.getSourceFile().fileName;
    const category = categoryOf(reflection, file);
    if (category) filed.set(reflection, category);
  });
  // Before TypeDoc's own category plugin reads the tags (it runs at a lower priority).
  app.converter.on(
    Converter.EVENT_RESOLVE_BEGIN,
    () => {
      for (const [reflection, category] of filed) {
        reflection.comment ??= new Comment();
        if (reflection.comment.blockTags.some((tag) => tag.tag === '@category')) continue;
        reflection.comment.blockTags.push(new CommentTag('@category', [{ kind: 'text', text: category }]));
      }
      filed.clear();
    },
    500,
  );
}

function categoryOf(reflection, file) {
  if (reflection.kindOf(ReflectionKind.Class) && /Error$/.test(reflection.name)) return 'Errors';
  const path = file?.replaceAll('\\', '/').match(/\/src\/(.+)\/[^/]+$/)?.[1];
  if (!path) return undefined;
  if (path === 'contract' && file.endsWith('/errors.ts')) return 'Errors';
  const [layer, sub] = path.split('/');
  return CATEGORIES[`${layer}/${sub}`] ?? CATEGORIES[layer];
}
