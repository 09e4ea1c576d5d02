import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const repoRoot = new URL('../..', import.meta.url).pathname;
const PACKAGE = '@sparticuz/chromium';

/** The installed version of `@sparticuz/chromium`, read from the package's own manifest. */
function packageVersion(): string {
  // The package exports no package.json, and its build folders hold manifests of their own
  // (`{"type":"module"}`, no name, no version): walk up to the one that names the package.
  let folder = dirname(require.resolve(PACKAGE));
  for (;;) {
    const manifest = join(folder, 'package.json');
    if (existsSync(manifest)) {
      const { name, version } = JSON.parse(readFileSync(manifest, 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (name === PACKAGE && version) return version;
    }
    const parent = dirname(folder);
    if (parent === folder)
      throw new Error(`no package.json naming ${PACKAGE} above ${require.resolve(PACKAGE)}`);
    folder = parent;
  }
}

/**
 * The browser of the report's tests comes through npm, as everything the tests need does: the npm
 * package `@sparticuz/chromium` ships a headless Chromium inside it (brotli-packed), so no apt step and
 * no download. It is unpacked once per package version into the git-ignored `.cache/`, so a newer
 * version never runs with an older one's libraries.
 */
export function chromiumFolder(): string {
  return join(repoRoot, '.cache', `chromium-${packageVersion()}`);
}

/** Where the unpacked Chromium lies (it may not be unpacked yet: see `unpackChromium`). */
export function chromiumPath(): string {
  return join(chromiumFolder(), 'chromium');
}

/**
 * The fontconfig folder the browser is launched with (as `FONTCONFIG_PATH`). The package's own
 * `fonts.conf` lists `/var/task/fonts`, `/opt/fonts` and `/tmp/fonts` (where it unpacks on AWS Lambda),
 * so with it the fonts are found only where an earlier run happened to leave `/tmp/fonts`. Ours names
 * the fonts unpacked beside the browser and a font cache in the same folder: nothing outside `.cache/`.
 */
export function fontconfigFolder(): string {
  return join(chromiumFolder(), 'fontconfig');
}

function writeFontconfig(folder: string): void {
  const conf = join(folder, 'fontconfig', 'fonts.conf');
  if (existsSync(conf)) return;
  mkdirSync(dirname(conf), { recursive: true });
  const xml = [
    '<?xml version="1.0"?>',
    '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
    '<fontconfig>',
    `  <dir>${join(folder, 'fonts')}</dir>`,
    `  <cachedir>${join(folder, 'fontconfig', 'cache')}</cachedir>`,
    '</fontconfig>',
    '',
  ].join('\n');
  // Written whole, then renamed: a browser never reads half a file.
  writeFileSync(`${conf}.tmp`, xml);
  renameSync(`${conf}.tmp`, conf);
}

/**
 * Unpacks the package's Chromium (with its fonts and SwiftShader) into `chromiumFolder()` unless it is
 * there, and writes the fontconfig file that points the browser at those fonts. The package unpacks
 * into `os.tmpdir()`, so TMPDIR points there for the call and is restored; it also sets
 * `FONTCONFIG_PATH` and `HOME` when they are unset, which are restored too. Run once per test run, by
 * test/global-setup.ts, so parallel test files never unpack at once.
 */
export async function unpackChromium(): Promise<string> {
  const folder = chromiumFolder();
  const path = join(folder, 'chromium');
  if (!existsSync(path)) {
    mkdirSync(folder, { recursive: true });
    const saved = {
      TMPDIR: process.env.TMPDIR,
      FONTCONFIG_PATH: process.env.FONTCONFIG_PATH,
      HOME: process.env.HOME,
    };
    process.env.TMPDIR = folder;
    try {
      const { default: chromium } = await import('@sparticuz/chromium');
      const unpacked = await chromium.executablePath();
      if (unpacked !== path) throw new Error(`${PACKAGE} unpacked to ${unpacked}, expected ${path}`);
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  }
  writeFontconfig(folder);
  return path;
}
