import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnnxBackend } from '../../src/onnx/index.js';
import { OpenAIServer } from '../../src/server/index.js';
import { fixtureModel, repoRoot } from '../onnx/fixture-model.js';
import { launchChromium } from '../report/browser.js';

const example = join(repoRoot, 'examples', 'web-suggest-reply');
/** The page's origin: another port than the server's, so its requests are cross-origin (CORS). */
const PAGE_ORIGIN = 'http://localhost:5173';

// Run in the page (Playwright serialises these functions); the repository has no DOM library.
declare const document: {
  getElementById(id: string): { textContent: string | null } | null;
  body: unknown;
};
declare class MutationObserver {
  constructor(callback: () => void);
  observe(target: unknown, options: Record<string, boolean>): void;
}

interface Snapshot {
  action: string;
  price: string;
  message: string;
  status: string;
}

let backend: OnnxBackend;
let server: OpenAIServer;
let baseURL: string;
let script: string;

beforeAll(async () => {
  // Bundled as the README says, with 'haggle' resolved to this checkout's browser entry.
  const bundled = await build({
    entryPoints: [join(example, 'main.ts')],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
    tsconfigRaw: {},
    alias: { haggle: join(repoRoot, 'src', 'core.ts') },
  });
  script = bundled.outputFiles[0]?.text ?? '';
  backend = await OnnxBackend.load(fixtureModel(1));
  server = new OpenAIServer({ backend, cors: { origins: [PAGE_ORIGIN] } });
  baseURL = await server.listen({ port: 0, host: '127.0.0.1' });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await backend?.dispose();
});

async function openPage(serverURL: string) {
  const browser = await launchChromium();
  const page = await browser.newPage();
  // The page and its script come from the page's origin; every other request reaches the real server.
  await page.route(`${PAGE_ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/dist/main.js') return route.fulfill({ contentType: 'text/javascript', body: script });
    return route.fulfill({
      contentType: 'text/html',
      body: readFileSync(join(example, 'index.html'), 'utf8'),
    });
  });
  const query = new URLSearchParams({ server: serverURL, model: backend.modelId, seed: '4' });
  await page.goto(`${PAGE_ORIGIN}/?${query}`);
  // Every change of the page's fields, recorded as it happens (the DOM seen many times in one turn).
  await page.evaluate(() => {
    const read = (id: string) => document.getElementById(id)?.textContent ?? '';
    const snapshots: Snapshot[] = [];
    (globalThis as unknown as { snapshots: Snapshot[] }).snapshots = snapshots;
    new MutationObserver(() => {
      snapshots.push({
        action: read('action'),
        price: read('price'),
        message: read('message'),
        status: read('status'),
      });
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return { browser, page };
}

describe('examples/web-suggest-reply in headless Chromium', () => {
  it('shows the action and the price before the message is complete, from haggle serve --cors', {
    timeout: 180_000,
  }, async () => {
    const { browser, page } = await openPage(baseURL);
    try {
      await page.click('#suggest');
      await page.waitForFunction(
        () =>
          document.getElementById('status')?.textContent !== 'writing…' &&
          document.getElementById('status')?.textContent !== 'idle',
        undefined,
        { timeout: 150_000 },
      );
      expect(await page.textContent('#status')).toBe('done');
      const snapshots = (await page.evaluate(
        () => (globalThis as unknown as { snapshots: Snapshot[] }).snapshots,
      )) as Snapshot[];
      const final = snapshots.at(-1) as Snapshot;
      expect(final.action).toBe('offer_with_message');
      // The guardrail: never below 95; and a counter below the list price.
      expect(Number(final.price)).toBeGreaterThanOrEqual(95);
      expect(Number(final.price)).toBeLessThan(120);
      expect(final.message.length).toBeGreaterThan(0);
      // During the turn: the action and the price on the page while the message was still being written.
      const early = snapshots.filter(
        (s) =>
          s.action === final.action && s.price === final.price && s.message.length < final.message.length,
      );
      expect(early.length).toBeGreaterThan(0);
      const partialMessages = new Set(
        snapshots.map((s) => s.message).filter((m) => m !== '' && m !== final.message),
      );
      expect(partialMessages.size).toBeGreaterThan(1);
    } finally {
      await browser.close();
    }
  });

  it('without --cors for its origin, the page says the request failed, and the server refused the preflight', {
    timeout: 120_000,
  }, async () => {
    const closed = new OpenAIServer({ backend });
    const url = await closed.listen({ port: 0, host: '127.0.0.1' });
    const { browser, page } = await openPage(url);
    try {
      const preflights: number[] = [];
      page.on('response', (response) => {
        if (response.request().method() === 'OPTIONS') preflights.push(response.status());
      });
      await page.click('#suggest');
      await page.waitForFunction(
        () => document.getElementById('status')?.textContent?.startsWith('failed'),
        undefined,
        {
          timeout: 100_000,
        },
      );
      expect(await page.textContent('#status')).toMatch(/^failed: /);
    } finally {
      await browser.close();
      await closed.close();
    }
  });
});
