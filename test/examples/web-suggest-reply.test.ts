import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnnxBackend } from '../../src/onnx/index.js';
import { OpenAIServer } from '../../src/server/index.js';
import { readDocBlocks } from '../docs/doc-blocks.js';
import { cloneLikeFolder, runShellBlock } from '../docs/shell-blocks.js';
import { fixtureModel, repoRoot } from '../onnx/fixture-model.js';
import { launchChromium, renderedTextWidths } from '../report/browser.js';

/** The example as a clone holds it, after the README's build command: index.html and dist/main.js. */
let example: string;
/** The page's origin: a static server on another port than the model server's (cross-origin: CORS). */
let PAGE_ORIGIN: string;
let pages: Server;

// Run in the page (Playwright serialises these functions); the repository has no DOM library.
interface Field {
  textContent: string | null;
  dataset: Record<string, string | undefined>;
  querySelectorAll(selector: string): Iterable<Field>;
}
declare const document: { getElementById(id: string): Field | null; body: unknown };
declare class MutationObserver {
  constructor(callback: () => void);
  observe(target: unknown, options: Record<string, boolean>): void;
}

/** The suggestion card as the reader sees it (words, formatted price, chips) and its raw values. */
interface Snapshot {
  action: string;
  actionCode: string;
  price: string;
  priceValue: string;
  message: string;
  labels: string[];
  status: string;
}

let backend: OnnxBackend;
let server: OpenAIServer;
let baseURL: string;
let script: string;
let clone: string | undefined;

beforeAll(async () => {
  // Bundled by the README's command, exactly as written, in a clone-like folder (the repository's files,
  // its node_modules and built dist/): 'haggle' resolves as the README says, to the browser build.
  const build = readDocBlocks(repoRoot, 'examples/web-suggest-reply/README.md').find(
    (block) => block.runnable && block.code.includes('esbuild'),
  );
  if (!build) throw new Error('examples/web-suggest-reply/README.md has no runnable esbuild block');
  clone = mkdtempSync(join(repoRoot, '.cache', 'web-example-clone-'));
  cloneLikeFolder(repoRoot, clone);
  const built = await runShellBlock(repoRoot, build, clone);
  if (built.failure) throw new Error(`the README's esbuild command failed: ${built.stderr.slice(-2000)}`);
  example = join(clone, 'examples', 'web-suggest-reply');
  script = readFileSync(join(example, 'dist', 'main.js'), 'utf8');
  // The browser build, not the Node sources the repository's tsconfig maps 'haggle' to.
  expect(script).not.toMatch(/from ['"]node:/);
  expect(script).not.toContain('src/index.ts');
  // A real server for the page (a page Playwright fulfils has no address, and Chromium's Local Network
  // Access then refuses its calls to loopback): index.html and the bundle, as any static server.
  pages = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/dist/main.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(script);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(readFileSync(join(example, 'index.html'), 'utf8'));
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  PAGE_ORIGIN = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  backend = await OnnxBackend.load(fixtureModel(1));
  server = new OpenAIServer({ backend, cors: { origins: [PAGE_ORIGIN] } });
  baseURL = await server.listen({ port: 0, host: '127.0.0.1' });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await backend?.dispose();
  await new Promise((resolve) => pages?.close(resolve));
  if (clone) rmSync(clone, { recursive: true, force: true });
});

async function openPage(serverURL: string) {
  // A locale of its own: the page formats prices in the reader's.
  const browser = await launchChromium({ locale: 'en-US' });
  const page = await browser.newPage();
  const query = new URLSearchParams({ server: serverURL, model: backend.modelId, seed: '4' });
  await page.goto(`${PAGE_ORIGIN}/?${query}`);
  // Every change of the page's fields, recorded as it happens (the DOM seen many times in one turn).
  await page.evaluate(() => {
    const read = (id: string) => document.getElementById(id)?.textContent ?? '';
    const data = (id: string, key: string) => document.getElementById(id)?.dataset[key] ?? '';
    const snapshots: Snapshot[] = [];
    (globalThis as unknown as { snapshots: Snapshot[] }).snapshots = snapshots;
    new MutationObserver(() => {
      snapshots.push({
        action: read('action'),
        actionCode: data('action', 'action'),
        price: read('price'),
        priceValue: data('price', 'price'),
        message: read('message'),
        labels: [...(document.getElementById('labels')?.querySelectorAll('.chip') ?? [])].map(
          (chip) => chip.textContent ?? '',
        ),
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
      expect(await page.textContent('#status')).toBe('done'); // (a failure shows its message here)
      const snapshots = (await page.evaluate(
        () => (globalThis as unknown as { snapshots: Snapshot[] }).snapshots,
      )) as Snapshot[];
      const final = snapshots.at(-1) as Snapshot;
      // The action in words, the price in the listing's currency (USD, the page's en-US locale).
      expect(final.actionCode).toBe('offer_with_message');
      expect(final.action).toBe('Counter-offer with a message');
      const value = Number(final.priceValue);
      expect(final.price).toBe(
        new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(value),
      );
      expect(final.price).toMatch(/^\$\d{2,3}\.\d{2}$/);
      // The guardrail: never below 95; and a counter below the list price.
      expect(value).toBeGreaterThanOrEqual(95);
      expect(value).toBeLessThan(120);
      expect(final.message.length).toBeGreaterThan(0);
      // The labels as chips, in words ("build_rapport" -> "Build rapport"), never the raw identifiers.
      for (const label of final.labels) expect(label).not.toContain('_');
      // The listing and the buyer's offer in the same currency.
      expect(await page.textContent('#list-price')).toBe('$120.00');
      expect(await page.textContent('#buyer-offer')).toBe('$70.00');
      // The streaming order: the action, then the price, then the message as it is written.
      const firstAction = snapshots.findIndex((s) => s.action !== '');
      const firstPrice = snapshots.findIndex((s) => s.price !== '');
      const firstMessage = snapshots.findIndex((s) => s.message !== '');
      expect(firstAction).toBeGreaterThanOrEqual(0);
      expect(firstAction).toBeLessThanOrEqual(firstPrice);
      expect(firstPrice).toBeLessThan(firstMessage);
      expect(snapshots[firstPrice]?.message).toBe('');
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
      // The picture in the example's README; text drawn in real glyphs, not an empty page.
      const widths = await renderedTextWidths(page);
      expect(widths.wide).toBeGreaterThan(widths.narrow);
      const shot = join(mkdtempSync(join(repoRoot, '.cache', 'web-example-shot-')), 'screenshot.png');
      await page.locator('main').screenshot({ path: shot });
      expect(statSync(shot).size).toBeGreaterThan(20_000);
      // HAGGLE_WEB_SCREENSHOT=examples/web-suggest-reply/screenshot.png refreshes the README's picture.
      if (process.env.HAGGLE_WEB_SCREENSHOT) copyFileSync(shot, process.env.HAGGLE_WEB_SCREENSHOT);
      console.log(`web example screenshot: ${shot}`);
    } finally {
      await browser.close();
    }
  });

  it('without --cors for its origin: one refused preflight, no retries, and the page says CORS and the --cors fix', {
    timeout: 120_000,
  }, async () => {
    const closed = new OpenAIServer({ backend });
    const url = await closed.listen({ port: 0, host: '127.0.0.1' });
    const { browser, page } = await openPage(url);
    try {
      // Counted where they arrive: Playwright does not report CORS preflights as the page's requests.
      const arrived: string[] = [];
      (closed as unknown as { server: Server }).server.prependListener(
        'request',
        (req: { method?: string }) => arrived.push(req.method ?? ''),
      );
      const started = Date.now();
      await page.click('#suggest');
      await page.waitForFunction(
        () => document.getElementById('status')?.textContent?.startsWith('failed'),
        undefined,
        { timeout: 100_000 },
      );
      const status = (await page.textContent('#status')) ?? '';
      // The backend's error (CrossOriginRequestError) names the likely cause and the fix, not "connection failed".
      expect(status).toMatch(/^failed: /);
      expect(status).toContain('CORS');
      expect(status).toContain(`--cors ${PAGE_ORIGIN}`);
      expect(status).toContain('after 1 attempt(s)');
      // Not retried: the default policy would have sent 6 requests with backoff between them.
      expect(arrived).toEqual(['OPTIONS']);
      expect(Date.now() - started).toBeLessThan(60_000);
    } finally {
      await browser.close();
      await closed.close();
    }
  });
});
