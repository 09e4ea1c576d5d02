import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const repoRoot = new URL('../..', import.meta.url).pathname;

/**
 * The browser of the report's tests comes through npm, as everything the tests need does: the npm
 * package `@sparticuz/chromium` ships a headless Chromium inside it (brotli-packed), so no apt step and
 * no download. It is unpacked once per package version into the git-ignored `.cache/`, so a newer
 * version never runs with an older one's libraries.
 */
export function chromiumFolder(): string {
  // The package exports no package.json; its folder is found from its entry point.
  let folder = dirname(require.resolve('@sparticuz/chromium'));
  while (!existsSync(join(folder, 'package.json'))) folder = dirname(folder);
  const { version } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version: string };
  return join(repoRoot, '.cache', `chromium-${version}`);
}

/** Where the unpacked Chromium lies (it may not be unpacked yet: see `unpackChromium`). */
export function chromiumPath(): string {
  return join(chromiumFolder(), 'chromium');
}

/**
 * Unpacks the package's Chromium (with its fonts and SwiftShader) into `chromiumFolder()` unless it is
 * there. The package unpacks into `os.tmpdir()`, so TMPDIR points there for the call and is restored.
 * Run once per test run, by test/global-setup.ts, so parallel test files never unpack at once.
 */
export async function unpackChromium(): Promise<string> {
  const folder = chromiumFolder();
  const path = join(folder, 'chromium');
  if (existsSync(path)) return path;
  mkdirSync(folder, { recursive: true });
  const saved = { TMPDIR: process.env.TMPDIR, FONTCONFIG_PATH: process.env.FONTCONFIG_PATH };
  process.env.TMPDIR = folder;
  try {
    const { default: chromium } = await import('@sparticuz/chromium');
    const unpacked = await chromium.executablePath();
    if (unpacked !== path) throw new Error(`@sparticuz/chromium unpacked to ${unpacked}, expected ${path}`);
    return path;
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}
