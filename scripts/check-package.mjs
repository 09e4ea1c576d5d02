// Package hygiene, run by `npm test` after the build: the published shape must work for every user.
// 1. publint: the exports map, files and fields are consistent.
// 2. @arethetypeswrong/cli: types resolve correctly for ESM and CommonJS consumers.
// 3. Smoke tests: the built package loads by name with `import` and with `require` (Node resolves a
//    package's own name through its exports map), and the `haggle` bin runs.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
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
    return `50 sessions, deal rate ${(summary.dealRate * 100).toFixed(1)}%`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

if (failures > 0) {
  console.log(`package checks: ${failures} failed`);
  process.exit(1);
}
console.log('package checks: all passed');
