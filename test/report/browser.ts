import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { chromiumPath, fontconfigFolder } from '../helpers/chromium.js';

/** The Chromium of the npm package `@sparticuz/chromium`, unpacked by test/global-setup.ts. */
export const CHROMIUM = chromiumPath();

export const CHROMIUM_MISSING = `Chromium is not unpacked at ${CHROMIUM}. It comes with the dev dependency @sparticuz/chromium: run \`npm ci\`, then \`npx vitest run test/report\` (the test run's global setup unpacks it).`;

/**
 * A headless Chromium with a fresh profile and everything that could reach the network at start-up
 * turned off, so the only requests the page makes are its own.
 */
export async function launchChromium(options: { locale?: string } = {}): Promise<BrowserContext> {
  if (!existsSync(CHROMIUM)) throw new Error(CHROMIUM_MISSING);
  const profile = mkdtempSync(join(tmpdir(), 'haggle-chromium-'));
  // Playwright refuses --user-data-dir among the args: a persistent context is how it takes one.
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    // The package's fonts, unpacked beside the browser, through a fontconfig file of ours that names
    // them (test/helpers/chromium.ts): text renders the same on any machine, fresh or not.
    env: { ...withoutFontconfig(process.env), FONTCONFIG_PATH: fontconfigFolder() },
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
    ...(options.locale === undefined ? {} : { locale: options.locale }),
  });
}

/** The environment without fontconfig overrides of the caller's, which would replace ours. */
function withoutFontconfig(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { FONTCONFIG_FILE: _file, FONTCONFIG_SYSFILE: _sysfile, ...rest } = env;
  return rest;
}

/**
 * The rendered widths, in CSS pixels, of a known string at 16 px in the page's own font and of the
 * same number of narrow and of wide letters. With no font found, Chromium draws no glyphs: every width
 * is 0 (or all equal), which a screenshot's file size cannot tell from a page of charts.
 */
export async function renderedTextWidths(
  page: Page,
): Promise<{ phrase: number; narrow: number; wide: number }> {
  return page.evaluate(() => {
    // The tests compile without the DOM's types: the few members used here, spelt out.
    type Span = {
      textContent: string;
      style: { cssText: string };
      getBoundingClientRect(): { width: number };
      remove(): void;
    };
    const doc = (
      globalThis as unknown as {
        document: { createElement(tag: 'span'): Span; body: { append(node: Span): void } };
      }
    ).document;
    const measure = (text: string): number => {
      const span = doc.createElement('span');
      span.textContent = text;
      span.style.cssText = 'position:absolute;visibility:hidden;white-space:pre;font-size:16px';
      doc.body.append(span);
      const width = span.getBoundingClientRect().width;
      span.remove();
      return width;
    };
    return { phrase: measure('Deal rate'), narrow: measure('iiiiiiiiii'), wide: measure('WWWWWWWWWW') };
  });
}
