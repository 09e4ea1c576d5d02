import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { launchChromium } from '../report/browser.js';

// The API reference as `npm run docs` writes it (npm test runs it before the unit tests): a landing page
// that links every guide, module pages grouped by layer with the errors last, and the main entry points
// with an example and a link to their guide. HAGGLE_API_SCREENSHOT=docs/api-reference.png refreshes the
// landing page's picture in docs/.

const repoRoot = new URL('../..', import.meta.url).pathname;
const api = join(repoRoot, '.cache', 'api');
if (!existsSync(join(api, 'index.html')))
  throw new Error('this test reads the API reference: run `npm run docs` first (npm test does)');

const page = (path: string) => parseHTML(readFileSync(join(api, path), 'utf8')).document;
const guides = readdirSync(join(repoRoot, 'docs')).filter((name) => name.endsWith('.md'));

/** `#negotiationagent` or `../classes/haggle.NegotiationAgent.html` -> `negotiationagent`. */
const entryName = (href: string) =>
  (href.startsWith('#')
    ? href.slice(1)
    : (href.split('/').at(-1) ?? '')
        .replace(/\.html$/, '')
        .split('.')
        .at(-1)
  )?.toLowerCase() ?? '';

/** A module page's sections: category name -> the (lower-case) names of its entries. */
function sections(path: string): Map<string, string[]> {
  const result = new Map<string, string[]>();
  for (const summary of page(path).querySelectorAll('summary[data-key^="section-"]')) {
    const name = (summary.getAttribute('data-key') as string).slice('section-'.length);
    const links = [...(summary.parentElement?.querySelectorAll('a[href]') ?? [])].map((a) =>
      entryName(a.getAttribute('href') as string),
    );
    result.set(name, [...(result.get(name) ?? []), ...links]);
  }
  return result;
}

describe('the API reference', () => {
  it('opens on a landing page that links every guide in docs/', () => {
    const links = [...page('index.html').querySelectorAll('a[href]')].map((a) => a.getAttribute('href'));
    expect(guides.length).toBeGreaterThan(10);
    for (const guide of guides) expect(links).toContain(`documents/${guide.replace(/\.md$/, '.html')}`);
    // The guides are pages of the reference, not links out of it.
    for (const guide of guides)
      expect(existsSync(join(api, 'documents', guide.replace(/\.md$/, '.html')))).toBe(true);
    expect(links).toContain('classes/haggle.NegotiationAgent.html');
  });

  it('groups each module by layer, errors last, NegotiationAgent under Agent', () => {
    const haggle = sections('modules/haggle.html');
    const names = [...haggle.keys()];
    expect(names.slice(0, 4)).toEqual(['Agent', 'Baselines', 'Backends', 'Contract']);
    expect(names).toContain('Simulation');
    expect(names.at(-1)).toBe('Errors');
    expect(names).not.toContain('Other');
    expect(haggle.get('Agent')).toContain('negotiationagent');
    expect(haggle.get('Errors')).not.toContain('negotiationagent');
    expect(haggle.get('Errors')).toContain('invalidinputerror');
    expect(haggle.get('Baselines')).toContain('populationagent');
    expect(haggle.get('Simulation')).toEqual(expect.arrayContaining(['session', 'simulate']));
    expect([...sections('modules/haggle_evaluation.html').keys()]).toContain('Evaluation');
    expect([...sections('modules/haggle_report.html').keys()]).toEqual(['Report', 'Errors']);
  });

  it.each([
    ['classes/haggle.NegotiationAgent.html', 'negotiation-agent'],
    ['classes/haggle.Session.html', 'simulation'],
    ['classes/haggle.OpenAICompatibleBackend.html', 'remote'],
    ['classes/haggle_onnx.OnnxBackend.html', 'local-onnx'],
    ['classes/haggle.PopulationAgent.html', 'baseline-agents'],
    ['functions/haggle_evaluation.runTournament.html', 'evaluation'],
  ])('%s shows an example and links its guide', (path, guide) => {
    const doc = page(path);
    const headings = [...doc.querySelectorAll('h4')].map((h) => h.textContent?.trim());
    expect(headings).toContain('Example');
    expect(doc.querySelector('pre code.ts')?.textContent).toMatch(/^import /);
    const links = [...doc.querySelectorAll('a[href]')].map((a) => a.getAttribute('href'));
    expect(links).toContain(`../documents/${guide}.html`);
  });

  it('renders in Chromium: the landing page shows the guides', async () => {
    const context = await launchChromium();
    try {
      const tab = await context.newPage();
      await tab.setViewportSize({ width: 1280, height: 900 });
      await tab.goto(pathToFileURL(join(api, 'index.html')).href);
      await tab.getByRole('heading', { name: 'haggle API reference' }).waitFor();
      const guideLinks = tab.locator('.tsd-panel a[href^="documents/"]:visible');
      expect(await guideLinks.count()).toBeGreaterThanOrEqual(guides.length);
      const shot = join(mkdtempSync(join(tmpdir(), 'haggle-api-shot-')), 'api-reference.png');
      await tab.screenshot({ path: shot });
      expect(statSync(shot).size).toBeGreaterThan(30_000);
      if (process.env.HAGGLE_API_SCREENSHOT) copyFileSync(shot, process.env.HAGGLE_API_SCREENSHOT);
      console.log(`API reference screenshot: ${shot}`);
    } finally {
      await context.close();
    }
  }, 60_000);
});
