// A new user's install, for real: the packed tarball and onnxruntime-node go into a fresh project
// with the recipe of docs/local-onnx.md, npm prints no warning and asks for no script approval, and
// the project imports haggle, runs its bin (the local backend included) and typechecks every subpath
// under moduleResolution node10 and nodenext.
//
// Nothing is downloaded: npm runs `--offline` against the npm cache that this repository's `npm ci`
// filled (its path read from `npm config get cache` here, then passed explicitly, since the
// consumer's HOME is new), and onnxruntime-node's install script, should it ever try to download,
// is sent to a proxy that refuses every connection.
//
// Needs dist/ built (`npm test` builds before the unit tests; alone: `npm run build` first).
import { execFile } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureModel, repoRoot } from '../onnx/fixture-model.js';
import { consumerLockfile, type Lockfile } from './consumer-lockfile.js';

const execFileAsync = promisify(execFile);
const minutes = (count: number) => count * 60_000;

/** stdout and stderr of a command that must succeed; its output in the error when it does not. */
async function run(
  file: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeout?: number },
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await execFileAsync(file, args, {
      ...options,
      encoding: 'utf8',
      timeout: options.timeout ?? minutes(3),
      killSignal: 'SIGKILL',
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const failed = error as Error & { stdout?: string; stderr?: string };
    throw new Error(
      `${file} ${args.join(' ')} failed: ${failed.message}\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`,
    );
  }
}

// A refusing proxy for onnxruntime-node's install script (it routes downloads through global-agent).
const nowhere = 'http://127.0.0.1:9';

/**
 * The environment of a user's shell: no `npm_*` variables (vitest may run under `npm test`, which
 * sets them and would steer the consumer's npm), no ONNXRUNTIME_NODE_INSTALL unless a step sets it.
 */
function userEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(
    ([name]) => !/^npm_/i.test(name) && !name.startsWith('ONNXRUNTIME_NODE_INSTALL'),
  );
  return {
    ...Object.fromEntries(inherited),
    HOME: home,
    GLOBAL_AGENT_HTTP_PROXY: nowhere,
    GLOBAL_AGENT_HTTPS_PROXY: nowhere,
    ...extra,
  };
}

// One import of each entry point, as a user's file would write it.
const usesEveryEntry = `import { NegotiationAgent, Session } from 'haggle';
import { compileSchema } from 'haggle/decoding';
import { createEnvironment } from 'haggle/env';
import { runTournament } from 'haggle/evaluation';
import { computeMetrics } from 'haggle/metrics';
import { readRunFile } from 'haggle/node';
import { OnnxBackend } from 'haggle/onnx';
import { writeReport } from 'haggle/report';
import { OpenAIServer } from 'haggle/server';
import { MockLanguageBackend } from 'haggle/testing';

export const entries = [NegotiationAgent, Session, compileSchema, createEnvironment, runTournament, computeMetrics, readRunFile, writeReport, OpenAIServer, MockLanguageBackend];
export const load = (directory: string): Promise<OnnxBackend> => OnnxBackend.load(directory, { device: 'cpu' });
`;

describe('the packed tarball installed into a fresh project with onnxruntime-node', () => {
  let work: string;
  let consumer: string;
  let home: string;
  let installOutput: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'haggle-consumer-'));
    home = join(work, 'home');
    consumer = join(work, 'consumer');
    mkdirSync(home);
    mkdirSync(consumer);
    // The cache of the repository's own npm, asked with this process's environment as it is: an
    // `npm_config_cache` set by the caller (.ci/run keeps the download cache while HOME is new) counts.
    const cache = (
      await run('npm', ['config', 'get', 'cache'], { cwd: repoRoot, env: process.env })
    ).stdout.trim();
    const repoEnv = userEnv(process.env.HOME ?? home);

    // Packed as `npm publish` packs it (prepack and postpack run), from the dist/ already built.
    const packDir = join(work, 'pack');
    mkdirSync(packDir);
    await run('npm', ['pack', '--pack-destination', packDir], {
      cwd: repoRoot,
      env: { ...repoEnv, HAGGLE_PACK_PREBUILT: '1', npm_config_cache: cache },
    });
    const [filename] = readdirSync(packDir).filter((name) => name.endsWith('.tgz')) as [string];
    renameSync(join(packDir, filename), join(consumer, filename));
    const tarballManifest = JSON.parse(
      (
        await run('tar', ['-xzOf', join(consumer, filename), 'package/package.json'], {
          cwd: work,
          env: repoEnv,
        })
      ).stdout,
    ) as { dependencies: Record<string, string> };

    // The consumer has onnxruntime-node (and TypeScript) declared and locked at the versions this
    // repository's npm ci installed; `npm install <tarball>` then adds haggle as a user's install
    // would (a lockfile entry for haggle written here would hide its manifest's scripts from npm).
    const repoLock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as Lockfile;
    const lockedVersion = (name: string) => repoLock.packages[`node_modules/${name}`]?.version as string;
    const dependencies = Object.fromEntries(
      ['onnxruntime-node', 'typescript', '@types/node'].map((name) => [name, lockedVersion(name)]),
    );
    const project = { name: 'consumer', version: '1.0.0', private: true, type: 'module', dependencies };
    writeFileSync(join(consumer, 'package.json'), `${JSON.stringify(project, null, 2)}\n`);
    const lockfile = consumerLockfile(
      repoLock,
      { name: project.name, version: project.version, dependencies },
      tarballManifest.dependencies,
    );
    writeFileSync(join(consumer, 'package-lock.json'), `${JSON.stringify(lockfile, null, 2)}\n`);

    // The recipe of docs/local-onnx.md, step by step.
    const env = userEnv(home);
    await run('npm', ['pkg', 'set', 'allowScripts.onnxruntime-node=false', '--json'], { cwd: consumer, env });
    const npmFlags = ['--offline', '--cache', cache, '--no-audit', '--no-fund', '--no-update-notifier'];
    const install = await run('npm', ['install', `./${filename}`, ...npmFlags], {
      cwd: consumer,
      env: userEnv(home, { ONNXRUNTIME_NODE_INSTALL: 'skip' }),
      timeout: minutes(6),
    });
    installOutput = `${install.stdout}\n${install.stderr}`;
  }, minutes(8));

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('installs with no npm warning and no install script left to approve', () => {
    expect(installOutput).toMatch(/added \d+ packages/);
    expect(installOutput).not.toMatch(/npm warn/i);
    // npm 11 lists scripts not covered by allowScripts (haggle's `prepare` was one, in a .tgz).
    expect(installOutput).not.toMatch(/install-scripts|allowScripts|prepare/);
  });

  it('imports haggle and haggle/onnx; no CUDA provider was downloaded', async () => {
    const script = `const haggle = await import('haggle');
const onnx = await import('haggle/onnx');
console.log(JSON.stringify({ session: typeof haggle.Session, load: typeof onnx.OnnxBackend.load, cuda: onnx.cudaProviderInstalled() }));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: consumer,
      env: userEnv(home),
    });
    expect(JSON.parse(stdout)).toEqual({ session: 'function', load: 'function', cuda: false });
  });

  it(
    'runs the haggle bin: a simulation, and a turn from the local ONNX backend',
    async () => {
      const bin = join(consumer, 'node_modules', '.bin', 'haggle');
      const env = userEnv(home);
      const simulated = await run(bin, ['simulate', '--sessions', '20', '--seed', '3', '--json'], {
        cwd: consumer,
        env,
      });
      expect(JSON.parse(simulated.stdout).sessions).toBe(20);

      writeFileSync(join(consumer, 'listing.json'), '{"item": {"title": "Nikon F3 body"}, "listPrice": 120}');
      const predicted = await run(
        bin,
        [
          'predict',
          '--backend',
          'onnx',
          '--model',
          fixtureModel(1),
          '--context',
          'listing.json',
          '--role',
          'buyer',
        ],
        { cwd: consumer, env },
      );
      // The installed onnxruntime-node runs without its install script: its CPU provider is in the package.
      const turn = JSON.parse(predicted.stdout) as { action: string };
      expect(['offer', 'offer_with_message', 'accept', 'decline', 'message_only', 'no_response']).toContain(
        turn.action,
      );
    },
    minutes(3),
  );

  it(
    'typechecks a file importing every subpath under moduleResolution node10 and nodenext',
    async () => {
      writeFileSync(join(consumer, 'uses-every-entry.ts'), usesEveryEntry);
      const settings = {
        node10: { module: 'commonjs', moduleResolution: 'node10' },
        nodenext: { module: 'nodenext', moduleResolution: 'nodenext' },
      };
      const checks = Object.entries(settings).map(async ([name, resolution]) => {
        const compilerOptions = {
          ...resolution,
          target: 'es2022',
          strict: true,
          esModuleInterop: true,
          noEmit: true,
        };
        writeFileSync(
          join(consumer, `tsconfig.${name}.json`),
          JSON.stringify({ compilerOptions, files: ['uses-every-entry.ts'] }),
        );
        const tsc = join(consumer, 'node_modules', '.bin', 'tsc');
        const { stdout } = await run(tsc, ['-p', `tsconfig.${name}.json`], {
          cwd: consumer,
          env: userEnv(home),
        });
        return [name, stdout.trim()];
      });
      expect(Object.fromEntries(await Promise.all(checks))).toEqual({ node10: '', nodenext: '' });
    },
    minutes(5),
  );

  it(
    "onnxruntime-node's install script reads ONNXRUNTIME_NODE_INSTALL=skip (the recipe for npm 10)",
    async () => {
      // npm 11 never runs the denied script; npm 10 ignores allowScripts and runs it: the variable is
      // what keeps it from downloading there. Run as npm would, with the download proxy refusing.
      const script = join(consumer, 'node_modules', 'onnxruntime-node', 'script', 'install.js');
      const skipped = await run(process.execPath, [script], {
        cwd: consumer,
        env: userEnv(home, { ONNXRUNTIME_NODE_INSTALL: 'skip' }),
        timeout: minutes(2),
      });
      expect(skipped.stdout + skipped.stderr).toBe('');

      // Without it, on Linux x64 the script goes for the CUDA provider (and meets the refusing proxy);
      // elsewhere it has nothing to download.
      const fetchesByDefault = process.platform === 'linux' && process.arch === 'x64';
      const unskipped = await execFileAsync(process.execPath, [script], {
        cwd: consumer,
        env: userEnv(home),
        encoding: 'utf8',
        timeout: minutes(2),
        killSignal: 'SIGKILL',
      }).then(
        () => 'exited 0',
        (error: Error & { stderr?: string }) => `failed: ${error.stderr ?? error.message}`,
      );
      if (fetchesByDefault) expect(unskipped).toMatch(/^failed: [\s\S]*(ECONNREFUSED|nuget)/);
      else expect(unskipped).toBe('exited 0');
    },
    minutes(5),
  );
});
