// Builds dist/ from src/ with tsup, atomically, and (with --if-stale) only when the sources changed.
//
//   node scripts/build.mjs              build (what `npm run build` runs)
//   node scripts/build.mjs --if-stale   build unless dist/ was built from exactly these sources
//                                       (what `prepare` runs: `npm ci`, and `npx haggle` in a clone)
//
// Why --if-stale: npm 11's `npx haggle` inside a clone sees that the folder's own package.json has a
// `haggle` bin, links the clone into npx's cache and runs its `prepare` script again (libnpmexec
// checks the local package's bins before node_modules/.bin). A full build there cost 38.7 s and
// 1.08 GB the first time; a fingerprint of the inputs makes that second `prepare` a no-op.
//
// Why atomically: the old `rm -rf dist && tsup` left a window of tens of seconds with no dist/, so a
// `haggle serve` started beside a build failed with "not built yet". tsup now writes into a folder of
// its own under .cache/, and dist/ is swapped for it by two renames at the end.
//
// HAGGLE_REFUSE_BUILD=1 turns a build that --if-stale would run into an error: .ci/run sets it for the
// README's `npx haggle` half, which must find dist/ already built by `npm ci`.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
const stampName = '.build-fingerprint';
// Everything tsup reads that can change its output. node_modules is left out: dependencies are
// external to the bundles, and package-lock.json stands for the type packages the declarations see.
const inputFiles = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsup.config.ts'];
const inputFolders = ['src'];

function filesUnder(folder) {
  const found = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) found.push(...filesUnder(path));
    else if (entry.isFile()) found.push(path);
  }
  return found;
}

// `scripts` is left out of package.json's share: pack-manifest.mjs strips it while packing, and a
// script's text does not change what tsup writes.
function manifestWithoutScripts(text) {
  const { scripts: _scripts, ...rest } = JSON.parse(text);
  return JSON.stringify(rest);
}

function fingerprint() {
  const hash = createHash('sha256');
  const files = [
    ...inputFiles.map((name) => join(root, name)).filter((path) => existsSync(path)),
    ...inputFolders.flatMap((folder) => filesUnder(join(root, folder))),
  ].sort();
  for (const path of files) {
    const name = relative(root, path);
    const text = readFileSync(path);
    hash.update(`${name}\0${name === 'package.json' ? manifestWithoutScripts(text.toString('utf8')) : ''}\0`);
    if (name !== 'package.json') hash.update(text);
    hash.update('\0');
  }
  return hash.digest('hex');
}

function builtFingerprint() {
  try {
    return readFileSync(join(dist, stampName), 'utf8').trim();
  } catch {
    return null;
  }
}

function build(wanted) {
  const staging = join(root, '.cache', `build-${process.pid}`);
  const previous = join(root, '.cache', `dist-previous-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(join(root, '.cache'), { recursive: true });
  try {
    execFileSync(join(root, 'node_modules', '.bin', 'tsup'), ['--out-dir', staging], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    writeFileSync(join(staging, stampName), `${wanted}\n`);
    if (existsSync(dist)) renameSync(dist, previous);
    renameSync(staging, dist);
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(previous, { recursive: true, force: true });
  }
}

const ifStale = process.argv.includes('--if-stale');
const wanted = fingerprint();
if (ifStale && builtFingerprint() === wanted) {
  console.error('haggle: dist/ is up to date with src/ (no build needed)');
} else if (ifStale && process.env.HAGGLE_REFUSE_BUILD === '1') {
  console.error(
    'haggle: dist/ would be rebuilt here, but HAGGLE_REFUSE_BUILD=1 says it must already be built (run `npm run build`)',
  );
  process.exit(1);
} else {
  build(wanted);
}
