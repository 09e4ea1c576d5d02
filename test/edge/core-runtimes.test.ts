import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Turn, TurnSchema } from '../../src/index.js';
import { OnnxBackend } from '../../src/onnx/index.js';
import { OpenAIServer } from '../../src/server/index.js';
import { CONTEXT } from '../helpers/fixtures.js';
import { fixtureModel, repoRoot } from '../onnx/fixture-model.js';
import { launchChromium } from '../report/browser.js';
import { bundleCoreApp, type CoreBundle } from './core-bundle.js';

// The main entry as browsers and Deno get it: an app importing NegotiationAgent and
// OpenAICompatibleBackend from 'haggle', bundled for the browser, asks a real server on loopback
// (haggle's OpenAI-compatible server in front of the random-weight fixture model) for one turn.
// Random weights are the hardest customer: the turn is valid only because the server enforced the
// schema the agent sent, and the agent checked what came back.
const execFileAsync = promisify(execFile);

interface PredictOnce {
  turn: Turn;
  requests: number;
}

describe('the core entry outside Node', () => {
  let bundle: CoreBundle;
  let backend: OnnxBackend;
  let server: OpenAIServer;
  let baseURL: string;
  const completions: string[] = [];

  beforeAll(async () => {
    bundle = await bundleCoreApp();
    backend = await OnnxBackend.load(fixtureModel(1));
    server = new OpenAIServer({ backend });
    baseURL = await server.listen({ port: 0, host: '127.0.0.1' });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await backend?.dispose();
  });

  it('bundles for the browser with no node: module in it', () => {
    const inputs = Object.keys(bundle.metafile.inputs);
    expect(inputs.some((input) => input.endsWith('src/agent/negotiation-agent.ts'))).toBe(true);
    expect(inputs.filter((input) => input.startsWith('node:') || input.includes('node-transport'))).toEqual(
      [],
    );
    expect(bundle.code).not.toMatch(/from\s*["']node:/);
  });

  it('predicts a valid turn in Chromium, through the page’s fetch', { timeout: 120_000 }, async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const origin = new URL(baseURL).origin;
      // The page and its script are served at the server's origin (so the page's fetch is same-origin,
      // as an app served next to its model server); every other request reaches the real server.
      await page.route(`${origin}/edge/**`, (route) => {
        const path = new URL(route.request().url()).pathname;
        if (path === '/edge/app.js') {
          return route.fulfill({ contentType: 'text/javascript', body: bundle.code });
        }
        return route.fulfill({
          contentType: 'text/html',
          body: `<!doctype html><title>edge</title><script type="module">
import { predictOnce } from '/edge/app.js';
window.predictOnce = predictOnce;
</script>`,
        });
      });
      page.on('request', (request) => {
        if (request.url().includes('/v1/completions')) completions.push(request.url());
      });
      await page.goto(`${origin}/edge/index.html`);
      await page.waitForFunction(() => 'predictOnce' in globalThis);
      const answer = (await page.evaluate(
        ([url, model, context]) =>
          (globalThis as unknown as { predictOnce: (...args: unknown[]) => Promise<unknown> }).predictOnce(
            url,
            model,
            context,
          ),
        [baseURL, backend.modelId, CONTEXT] as const,
      )) as PredictOnce;
      expect(TurnSchema.safeParse(answer.turn).success).toBe(true);
      expect(answer.requests).toBeGreaterThanOrEqual(1);
      expect(completions.length).toBe(answer.requests);
    } finally {
      await browser.close();
    }
  });

  it('predicts a valid turn under Deno', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'haggle-deno-'));
    writeFileSync(join(dir, 'app.mjs'), bundle.code);
    writeFileSync(
      join(dir, 'main.mjs'),
      `import { predictOnce } from './app.mjs';
const [url, model, context] = Deno.args;
console.log(JSON.stringify(await predictOnce(url, model, JSON.parse(context))));`,
    );
    const port = new URL(baseURL).port;
    const { stdout } = await execFileAsync(
      join(repoRoot, 'node_modules', '.bin', 'deno'),
      [
        'run',
        '--no-config',
        '--no-lock',
        '--no-prompt',
        `--allow-net=127.0.0.1:${port}`,
        'main.mjs',
        baseURL,
        backend.modelId,
        JSON.stringify(CONTEXT),
      ],
      { cwd: dir, env: { ...process.env, DENO_DIR: join(dir, '.deno'), NO_COLOR: '1' }, timeout: 100_000 },
    );
    const answer = JSON.parse(stdout) as PredictOnce;
    expect(TurnSchema.safeParse(answer.turn).success).toBe(true);
    expect(answer.requests).toBeGreaterThanOrEqual(1);
  });
});
