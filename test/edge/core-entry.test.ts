import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import * as core from '../../src/core.js';
import * as nodeBuild from '../../src/index.js';

// The core build of the main entry (what browsers, Deno and edge runtimes get) against the Node build:
// the same names where both have them, with the two Node-only differences made explicit.
describe('the core build of the main entry', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it('holds no name that only Node can run, and the Node build holds every core name', () => {
    // The Node build is the core plus the Node-only pieces (files, the tokenizer loader)...
    for (const name of ['readRunFile', 'loadSessions', 'mergeRuns', 'loadTokenizer']) {
      expect(name in core, name).toBe(false);
      expect(name in nodeBuild, name).toBe(true);
    }
    // ...and the layers live on their subpaths only (issue 29: no flat names), in neither build.
    for (const name of ['OpenAIServer', 'runTournament', 'compileSchema', 'writeReport']) {
      expect(name in core, name).toBe(false);
      expect(name in nodeBuild, name).toBe(false);
    }
    expect(Object.keys(core).filter((name) => !(name in nodeBuild))).toEqual([]);
    expect(core.Session).toBe(nodeBuild.Session);
    expect(core.OpenAICompatibleBackend).not.toBe(nodeBuild.OpenAICompatibleBackend);
  });

  it('simulate refuses `out` with a typed error that names haggle/node', () => {
    let error: unknown;
    try {
      core.simulate({
        buyer: new core.PopulationAgent(),
        seller: new core.PopulationAgent(),
        sessions: 2,
        out: 'never-written.jsonl',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(core.InvalidInputError);
    expect((error as core.InvalidInputError).issues.map((issue) => issue.path)).toEqual(['out']);
    expect((error as Error).message).toContain("'haggle/node'");
  });

  it('simulate without `out` plays the same sessions as the Node build', async () => {
    const options = { sessions: 6, seed: 3 };
    const players = () => ({ buyer: new core.PopulationAgent(), seller: core.boulware() });
    const portable = await core.simulate({ ...players(), ...options }).done();
    const node = await nodeBuild.simulate({ ...players(), ...options }).done();
    expect(portable).toEqual(node);
    expect(portable.sessions).toBe(6);
  });

  it('OpenAICompatibleBackend posts through the global fetch, looked up at each call', async () => {
    const server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ choices: [{ message: { content: '{"ok":true}' }, finish_reason: 'stop' }] }));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const urls: string[] = [];
    const realFetch = globalThis.fetch;
    const backend = new core.OpenAICompatibleBackend({ baseURL: `http://127.0.0.1:${port}/v1`, model: 'm' });
    globalThis.fetch = (input, init) => {
      urls.push(String(input));
      return realFetch(input, init);
    };
    try {
      const result = await backend.doGenerate({ prompt: { messages: [{ role: 'user', content: 'hi' }] } });
      expect(result.choices[0]?.text).toBe('{"ok":true}');
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(urls).toEqual([`http://127.0.0.1:${port}/v1/chat/completions`]);
  });
});
