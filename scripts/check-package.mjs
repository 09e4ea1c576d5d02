// Package hygiene, run by `npm test` after the build: the published shape must work for every user.
// 1. publint: the exports map, files and fields are consistent.
// 2. The packed tarball: its package.json has no scripts (npm 11 would ask a consumer to approve
//    `prepare`), and @arethetypeswrong/cli finds its types under node10, node16 and bundler.
// 3. Smoke tests: the built package loads by name with `import` and with `require` (Node resolves a
//    package's own name through its exports map), every subpath included, and the `haggle` bin runs.
// 4. The main entry outside Node: a browser bundler (esbuild, platform browser) and Deno resolve
//    `haggle` to the core build, which reaches no `node:` module; under Node it is the core plus the
//    Node-only pieces, and no layer of a subpath (server, evaluation, report, decoding).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleForBrowser } from './browser-bundle.mjs';

const root = new URL('..', import.meta.url).pathname;
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const bin = (name) => join(root, 'node_modules', '.bin', name);
const run = (file, args, options = {}) =>
  execFileSync(file, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...options });

let failures = 0;
async function step(name, fn) {
  try {
    const detail = await fn();
    console.log(`ok   ${name}${detail ? ` — ${detail}` : ''}`);
  } catch (error) {
    failures++;
    console.log(`FAIL ${name}\n${error.stdout ?? ''}${error.message}`);
  }
}

await step('publint', () => run(bin('publint'), ['--strict']).trim().split('\n').pop());

// One tarball for the checks of the published shape, packed as `npm publish` packs (prepack and
// postpack run), from the dist/ that `npm test` has just built.
const packDir = mkdtempSync(join(tmpdir(), 'haggle-pack-'));
process.on('exit', () => rmSync(packDir, { recursive: true, force: true }));
const manifestBefore = readFileSync(join(root, 'package.json'), 'utf8');
const [{ filename: tarballName }] = JSON.parse(
  run('npm', ['pack', '--json', '--pack-destination', packDir], {
    env: { ...process.env, HAGGLE_PACK_PREBUILT: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  }),
);
const tarball = join(packDir, tarballName);

await step('packed package.json has no scripts; the repository one is put back', () => {
  const packed = JSON.parse(run('tar', ['-xzOf', tarball, 'package/package.json']));
  // npm 11 asks a consumer to approve `prepare` of a .tgz or git source; no script is needed there.
  if ('scripts' in packed)
    throw new Error(`the tarball's package.json has scripts: ${Object.keys(packed.scripts)}`);
  if (readFileSync(join(root, 'package.json'), 'utf8') !== manifestBefore)
    throw new Error('package.json differs after npm pack (postpack did not restore it)');
  return tarballName;
});

await step('arethetypeswrong', () => {
  // strict profile: node10 (typesVersions maps every subpath), node16 from CJS and ESM, bundler.
  run(bin('attw'), [tarball, '--profile', 'strict', '--format', 'table-flipped']);
  return 'no problems under node10, node16 (CJS, ESM) and bundler';
});

const expectedExports = [
  'NegotiationAgent',
  'Session',
  'simulate',
  'PopulationAgent',
  'TurnSchema',
  'ListingContextSchema',
  'HaggleError',
  'generateContexts',
  'turnJsonSchema',
];

// A name each subpath must export, and a few names of the layers that only their subpaths export.
const subpaths = {
  'haggle/node': ['OpenAICompatibleBackend', 'simulate', 'readRunFile', 'mergeRuns', 'loadTokenizer'],
  'haggle/metrics': ['computeMetrics', 'compare', 'compareToReferences', 'summarize'],
  'haggle/decoding': ['compileSchema', 'TokenSampler'],
  'haggle/evaluation': ['runTournament', 'generateSuite'],
  'haggle/report': ['renderReport', 'writeReport'],
  'haggle/server': ['OpenAIServer'],
  'haggle/env': ['createEnvironment', 'EnvironmentServer', 'connectEnvironment'],
  'haggle/onnx': ['OnnxBackend', 'buildModel'],
  'haggle/testing': ['MockLanguageBackend'],
  'haggle/ai-sdk': ['fromLanguageModel', 'createHaggle'],
};
const subpathOnlyNames = ['OpenAIServer', 'runTournament', 'compileSchema', 'writeReport', 'computeMetrics'];

// `load(expression)`: the code that loads the module named by a JavaScript expression.
for (const [flavour, load] of [
  ['ESM', (expression) => `await import(${expression})`],
  ['CommonJS', (expression) => `require(${expression})`],
]) {
  await step(`subpaths, and no layer of a subpath in 'haggle' (${flavour})`, () => {
    const script = `(async () => {
      const haggle = ${load("'haggle'")};
      const entries = ${JSON.stringify(subpaths)};
      for (const [entry, names] of Object.entries(entries)) {
        const module = ${load('entry')};
        const missing = names.filter((name) => typeof module[name] !== 'function');
        if (missing.length) throw new Error(entry + ' lacks ' + missing.join(', '));
      }
      const node = ${load("'haggle/node'")};
      const evaluation = ${load("'haggle/evaluation'")};
      // One class whichever entry it comes through (code splitting in both formats).
      if (haggle.OpenAICompatibleBackend !== node.OpenAICompatibleBackend) throw new Error('haggle under Node does not post through node:http');
      if (!(evaluation.ExperimentFileError.prototype instanceof haggle.HaggleError)) throw new Error('haggle/evaluation has another HaggleError');
      const stray = ${JSON.stringify(subpathOnlyNames)}.filter((name) => name in haggle);
      if (stray.length) throw new Error('the Node build of haggle exports ' + stray.join(', ') + ': import them from their subpaths');
      console.log(Object.keys(entries).length + ' subpaths');
    })().catch((error) => { console.error(error.message); process.exit(1); });`;
    const args = flavour === 'ESM' ? ['--input-type=module', '-e', script] : ['-e', script];
    return run(process.execPath, args).trim();
  });
}

await step('no layer of a subpath in the main entry types', () => {
  for (const file of ['index.d.ts', 'index.d.cts', 'core.d.ts']) {
    const types = readFileSync(join(root, 'dist', file), 'utf8');
    const stray = subpathOnlyNames.filter((name) => new RegExp(`\\b${name}\\b`).test(types));
    if (stray.length) throw new Error(`dist/${file} exports ${stray.join(', ')}`);
  }
  return 'index.d.ts, index.d.cts, core.d.ts';
});

await step('browser bundle of the main entry (esbuild, platform browser)', async () => {
  const { bytes, text, metafile } = await bundleForBrowser({
    code: "export { NegotiationAgent, OpenAICompatibleBackend } from 'haggle';",
    resolveDir: root,
  });
  const inputs = Object.keys(metafile.inputs);
  if (!inputs.includes('dist/core.js')) throw new Error(`haggle did not resolve to dist/core.js: ${inputs}`);
  // The AI SDK adapters live in haggle/ai-sdk only: none of their code (error codes survive minifying).
  for (const marker of ['ai-sdk-package-missing', 'unsupported-language-model', 'providerOptions.haggle'])
    if (text.includes(marker)) throw new Error(`the browser bundle holds haggle/ai-sdk code (${marker})`);
  return `${(bytes.length / 1024).toFixed(0)} KB minified, no node: module, no haggle/ai-sdk code`;
});

await step('browser bundle of haggle/ai-sdk (esbuild, platform browser)', async () => {
  // createHaggle over OpenAICompatibleBackend, or fromLanguageModel, in a browser or edge app.
  const { bytes } = await bundleForBrowser({
    code: "export { createHaggle, fromLanguageModel } from 'haggle/ai-sdk';",
    resolveDir: root,
  });
  return `${(bytes.length / 1024).toFixed(0)} KB minified, no node: module`;
});

await step('Deno imports the core build by name', () => {
  const dir = mkdtempSync(join(tmpdir(), 'haggle-deno-'));
  try {
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(root, join(dir, 'node_modules', 'haggle'), 'dir');
    writeFileSync(join(dir, 'package.json'), '{"type":"module","dependencies":{"haggle":"*"}}');
    writeFileSync(
      join(dir, 'main.mjs'),
      `import * as haggle from 'haggle';
if (typeof haggle.NegotiationAgent !== 'function') throw new Error('no NegotiationAgent');
if ('OpenAIServer' in haggle || 'mergeRuns' in haggle) throw new Error('Deno got the Node build');
console.log(Object.keys(haggle).length + ' exports');`,
    );
    const out = run(bin('deno'), ['run', '--no-lock', '--no-prompt', 'main.mjs'], {
      cwd: dir,
      env: { ...process.env, DENO_DIR: join(dir, '.deno'), NO_COLOR: '1' },
    });
    return out.trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

await step('import haggle (ESM)', () => {
  const script = `
    const haggle = await import('haggle');
    const testing = await import('haggle/testing');
    const onnx = await import('haggle/onnx');
    if (typeof onnx.OnnxBackend?.load !== 'function') throw new Error('haggle/onnx lacks OnnxBackend.load');
    const missing = ${JSON.stringify(expectedExports)}.filter((name) => !(name in haggle));
    if (missing.length) throw new Error('missing exports: ' + missing.join(', '));
    if (typeof testing.MockLanguageBackend !== 'function') throw new Error('haggle/testing lacks MockLanguageBackend');
    console.log(Object.keys(haggle).length + ' exports');`;
  return run(process.execPath, ['--input-type=module', '-e', script]).trim();
});

await step('require haggle (CommonJS)', () => {
  const script = `
    const haggle = require('haggle');
    const { MockLanguageBackend } = require('haggle/testing');
    if (typeof require('haggle/onnx').OnnxBackend?.load !== 'function') throw new Error('haggle/onnx lacks OnnxBackend');
    const missing = ${JSON.stringify(expectedExports)}.filter((name) => !(name in haggle));
    if (missing.length) throw new Error('missing exports: ' + missing.join(', '));
    if (typeof MockLanguageBackend !== 'function') throw new Error('haggle/testing lacks MockLanguageBackend');
    if (!haggle.HaggleError.isInstance(new haggle.InvalidInputError({ subject: 'x', issues: [] }))) throw new Error('isInstance');
    console.log(Object.keys(haggle).length + ' exports');`;
  return run(process.execPath, ['-e', script]).trim();
});

await step('haggle version in the ESM and CommonJS builds', () => {
  // Both builds record the version the package.json says (tsup's define), never `0.0.0-dev`.
  const esm = run(process.execPath, [
    '--input-type=module',
    '-e',
    "const { currentProvenance } = await import('haggle/metrics'); console.log(currentProvenance().haggle);",
  ]).trim();
  const cjs = run(process.execPath, [
    '-e',
    "console.log(require('haggle/metrics').currentProvenance().haggle)",
  ]).trim();
  if (esm !== version || cjs !== version)
    throw new Error(`ESM says ${esm}, CommonJS ${cjs}; package.json ${version}`);
  return version;
});

await step('haggle bin', () => {
  const dir = mkdtempSync(join(tmpdir(), 'haggle-smoke-'));
  try {
    const out = run(process.execPath, [
      join(root, 'bin', 'haggle.js'),
      'simulate',
      '--sessions',
      '50',
      '--seed',
      '3',
      '--json',
      '--out',
      join(dir, 'run.jsonl'),
    ]);
    const summary = JSON.parse(out);
    if (summary.sessions !== 50) throw new Error(`expected 50 sessions, got ${summary.sessions}`);
    // The run header says which haggle wrote it: the version in package.json, not a placeholder.
    const header = JSON.parse(readFileSync(join(dir, 'run.jsonl'), 'utf8').split('\n')[0]);
    if (header.provenance?.haggle !== version || header.provenance?.node !== process.version)
      throw new Error(
        `run header provenance ${JSON.stringify(header.provenance)}, expected haggle ${version}`,
      );
    return `50 sessions, deal rate ${(summary.dealRate * 100).toFixed(1)}%, header says haggle ${version}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

if (failures > 0) {
  console.log(`package checks: ${failures} failed`);
  process.exit(1);
}
console.log('package checks: all passed');
