import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnnxBackend } from '../../src/onnx/index.js';
import { OpenAIServer } from '../../src/server/index.js';
import { fixtureModel, repoRoot } from '../onnx/fixture-model.js';
import { launchChromium } from '../report/browser.js';

const example = join(repoRoot, 'examples', 'web-suggest-reply');
/** The page's origin: a static server on another port than the model server's (cross-origin: CORS). */
let PAGE_ORIGIN: string;
let pages: Server;

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
});

async function openPage(serverURL: string) {
  const browser = await launchChromium();
  const page = await browser.newPage();
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
      expect(await page.textContent('#status')).toBe('done'); // (a failure shows its message here)
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
