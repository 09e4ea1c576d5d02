// The published package.json carries no `scripts`: npm runs `prepack` and `postpack` around every
// `npm pack` and `npm publish`, and this file strips the field for the packing and puts it back after.
//
// Why: in a clone, `npm ci` builds dist/ through the `prepare` script (the README's first command
// needs it). In the tarball that script is useless (no src/, no tsup) and harmful: npm 11 counts
// `prepare` of a non-registry source (a .tgz, a git URL) as an install script and asks the consumer
// to approve it. npm reads the packed package.json from disk after `prepack` has run, so a manifest
// rewritten here is the one in the tarball, and pacote finds no `prepare` to run while packing.
//
//   node scripts/pack-manifest.mjs prepack    build dist/ (unless HAGGLE_PACK_PREBUILT=1), strip
//   node scripts/pack-manifest.mjs postpack   put the original package.json back
//
// HAGGLE_PACK_PREBUILT=1 says dist/ was just built from these sources (npm test builds before it
// packs): packing then leaves dist/ alone, which matters while other processes read it.
// A pack killed between the two steps leaves package.json without `scripts` (git shows it; `git
// checkout package.json` or `node scripts/pack-manifest.mjs postpack` puts it back).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const manifestPath = join(root, 'package.json');
// The original while a pack is under way.
const savedPath = join(root, '.cache', 'pack-manifest', 'package.json');

// A reader of package.json (another process, a test) never sees half a file.
function writeAtomically(path, text) {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

function restore() {
  if (!existsSync(savedPath)) return;
  writeAtomically(manifestPath, readFileSync(savedPath, 'utf8'));
  rmSync(savedPath);
}

function prepack() {
  if (process.env.HAGGLE_PACK_PREBUILT === '1') {
    if (!existsSync(join(root, 'dist', 'cli.js')))
      throw new Error('HAGGLE_PACK_PREBUILT=1 but dist/ is not built: run `npm run build` first');
  } else {
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  }
  const original = readFileSync(manifestPath, 'utf8');
  const { scripts: _scripts, ...published } = JSON.parse(original);
  mkdirSync(join(root, '.cache', 'pack-manifest'), { recursive: true });
  writeFileSync(savedPath, original);
  writeAtomically(manifestPath, `${JSON.stringify(published, null, 2)}\n`);
}

const step = process.argv[2];
if (step === 'prepack') prepack();
else if (step === 'postpack') restore();
else {
  console.error('usage: node scripts/pack-manifest.mjs prepack|postpack');
  process.exit(2);
}
