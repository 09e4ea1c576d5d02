import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { chromiumFolder, chromiumPath } from '../helpers/chromium.js';

/** The Chromium of the npm package `@sparticuz/chromium`, unpacked by test/global-setup.ts. */
export const CHROMIUM = chromiumPath();

export const CHROMIUM_MISSING = `Chromium is not unpacked at ${CHROMIUM}. It comes with the dev dependency @sparticuz/chromium: run \`npm ci\`, then \`npx vitest run test/report\` (the test run's global setup unpacks it).`;

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
    // The package's fonts, unpacked beside the browser: text renders the same on any machine.
    env: { ...process.env, FONTCONFIG_PATH: join(chromiumFolder(), 'fonts') },
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
