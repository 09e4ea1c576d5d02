import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { readRunFile } from '../../src/simulation/run-file.js';
import { captureIo } from '../helpers/capture-io.js';

it('--resume of a file started by another haggle and Node says so on stderr, and continues', async () => {
  const out = join(mkdtempSync(join(tmpdir(), 'haggle-resume-note-')), 'run.jsonl');
  const args = ['simulate', '-n', '20', '-s', '4', '--out', out, '--no-progress'];
  expect(await runCli(args, captureIo())).toBe(0);
  const whole = readFileSync(out, 'utf8');

  // The same run resumed on this machine: nothing to say.
  const lines = whole.split('\n');
  writeFileSync(out, `${lines.slice(0, 11).join('\n')}\n`);
  const same = captureIo();
  expect(await runCli([...args, '--resume'], same)).toBe(0);
  expect(same.err()).toBe('');
  expect(readFileSync(out, 'utf8')).toBe(whole);

  // Half of it as another machine left it.
  const header = JSON.parse(lines[0] as string);
  const version = header.provenance.haggle as string;
  header.provenance = { ...header.provenance, haggle: '0.0.1', node: 'v18.0.0' };
  writeFileSync(out, `${[JSON.stringify(header), ...lines.slice(1, 11)].join('\n')}\n`);
  const other = captureIo();
  expect(await runCli([...args, '--resume'], other)).toBe(0);
  expect(other.err()).toBe(
    `haggle: note: ${out} was started elsewhere (haggle 0.0.1 -> ${version}, node v18.0.0 -> ${process.version}); its header keeps the original provenance, and the sessions played now are added to it\n`,
  );
  const after = readRunFile(out);
  expect(after.sessions).toHaveLength(20);
  expect(after.header?.provenance?.haggle).toBe('0.0.1');
});
