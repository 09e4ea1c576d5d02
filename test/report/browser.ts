import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

/** Debian's Chromium; the tests never download a browser. */
export const CHROMIUM = '/usr/bin/chromium';

export const CHROMIUM_MISSING = `Chromium is not installed at ${CHROMIUM}. The report's browser test needs Debian's package: run \`sudo apt-get update && sudo apt-get install -y chromium\` (or use .ci/run, which installs it), then run \`npx vitest run test/report\` again.`;

/**
 * A headless Chromium with a fresh profile and everything that could reach the network at start-up
 * turned off, so the only requests the page makes are its own.
 */
export async function launchChromium(): Promise<BrowserContext> {
  if (!existsSync(CHROMIUM)) throw new Error(CHROMIUM_MISSING);
  const profile = mkdtempSync(join(tmpdir(), 'haggle-chromium-'));
  // Playwright refuses --user-data-dir among the args: a persistent context is how it takes one.
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1200, height: 900 },
  });
}
