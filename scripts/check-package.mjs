// Package hygiene, run by `npm test` after the build: the published shape must work for every user.
// 1. publint: the exports map, files and fields are consistent.
// 2. @arethetypeswrong/cli: types resolve correctly for ESM and CommonJS consumers.
// 3. Smoke tests: the built package loads by name with `import` and with `require` (Node resolves a
//    package's own name through its exports map), and the `haggle` bin runs.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const bin = (name) => join(root, 'node_modules', '.bin', name);
const run = (file, args, options = {}) =>
  execFileSync(file, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...options });

let failures = 0;
function step(name, fn) {
  try {
    const detail = fn();
    console.log(`ok   ${name}${detail ? ` — ${detail}` : ''}`);
  } catch (error) {
    failures++;
    console.log(`FAIL ${name}\n${error.stdout ?? ''}${error.message}`);
  }
}

step('publint', () => run(bin('publint'), ['--strict']).trim().split('\n').pop());

step('arethetypeswrong', () => {
  // node16 profile: every `exports` condition for ESM and CJS; node10 cannot see subpath exports at all.
  run(bin('attw'), ['--pack', '.', '--profile', 'node16', '--format', 'table-flipped']);
  return 'no problems';
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

step('import haggle (ESM)', () => {
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

step('require haggle (CommonJS)', () => {
  const script = `
    const haggle = require('haggle');
    const { MockLanguageBackend } = require('haggle/testing');
    if (typeof require('haggle/onnx').OnnxBackend?.load !== 'function') throw new Error('haggle/onnx lacks OnnxBackend');
    const missing = ${JSON.stringify(expectedExports)}.filter((name) => !(name in haggle));
    if (missing.length) throw new Error('missing exports: ' + missing.join(', '));
    if (typeof MockLanguageBackend !== 'function') throw new Error('haggle/testing lacks MockLanguageBackend');
    if (!haggle.HaggleError.isInstance(new haggle.InvalidInputError('x', []))) throw new Error('isInstance');
    console.log(Object.keys(haggle).length + ' exports');`;
  return run(process.execPath, ['-e', script]).trim();
});

step('haggle version in the ESM and CommonJS builds', () => {
  // Both builds record the version the package.json says (tsup's define), never `0.0.0-dev`.
  const esm = run(process.execPath, [
    '--input-type=module',
    '-e',
    "const { currentProvenance } = await import('haggle'); console.log(currentProvenance().haggle);",
  ]).trim();
  const cjs = run(process.execPath, [
    '-e',
    "console.log(require('haggle').currentProvenance().haggle)",
  ]).trim();
  if (esm !== version || cjs !== version)
    throw new Error(`ESM says ${esm}, CommonJS ${cjs}; package.json ${version}`);
  return version;
});

step('haggle bin', () => {
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
