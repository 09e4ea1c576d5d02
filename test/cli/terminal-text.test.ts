import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { terminalSafeIo } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/main.js';
import { ProgressBar } from '../../src/cli/progress-bar.js';
import { PopulationAgent } from '../../src/index.js';
import { terminalText } from '../../src/internal/terminal-text.js';
import { simulate } from '../../src/simulation/node-simulate.js';
import { captureIo } from '../helpers/capture-io.js';

// Issue 26: a run file's strings took over the terminal through `haggle show` (a window title, a cleared
// screen, a disguised OSC 8 link, a C1 CSI, a carriage return and cursor-up over earlier lines).

const HOSTILE =
  'Lamp \u001b]0;pwned\u0007 \u001b[2J \u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007 \u009b31mred \r\u001b[1Aover\u007f';

/** Every character a terminal would obey: C0 but newline and tab, DEL, C1. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is looked for
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** A small real run whose session 0 carries the hostile text in its title, category, id and a message. */
async function hostileRun(): Promise<{ path: string; messageSession: number }> {
  const path = join(mkdtempSync(join(tmpdir(), 'haggle-terminal-')), 'run.jsonl');
  const agent = new PopulationAgent();
  await simulate({ buyer: agent, seller: agent, sessions: 60, seed: 8, out: path }).done();
  const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
  let messageSession = -1;
  const changed = lines.map((line) => {
    const value = JSON.parse(line);
    if (value.type !== 'session') return line;
    if (value.index === 0) {
      value.sessionId = `s0${HOSTILE}`;
      value.context.item.title = HOSTILE;
      value.context.item.category = HOSTILE;
    }
    const spoken = value.turns.find((t: { turn: { message: string } }) => t.turn.message !== '');
    if (messageSession === -1 && spoken) {
      messageSession = value.index;
      value.context.item.title = HOSTILE;
      spoken.turn.message = HOSTILE;
    }
    return JSON.stringify(value);
  });
  writeFileSync(path, `${changed.join('\n')}\n`);
  expect(messageSession).toBeGreaterThanOrEqual(0);
  return { path, messageSession };
}

describe('terminalText', () => {
  it('escapes C0 (but newline and tab), DEL and C1 as visible \\u00XX, and leaves other text alone', () => {
    for (let code = 0; code <= 0x9f; code++) {
      const char = String.fromCharCode(code);
      const kept = code === 0x0a || code === 0x09 || (code >= 0x20 && code < 0x7f);
      expect(terminalText(char)).toBe(kept ? char : `\\u${code.toString(16).padStart(4, '0')}`);
    }
    expect(terminalText('Gebraucht – gut, 5 € 🙂\n\tnext')).toBe('Gebraucht – gut, 5 € 🙂\n\tnext');
    expect(terminalText('\u001b]0;x\u0007')).toBe('\\u001b]0;x\\u0007');
  });

  it('escapes the bidirectional overrides, embeddings and isolates; keeps the marks and RTL text', () => {
    for (const code of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069])
      expect(terminalText(String.fromCharCode(code))).toBe(`\\u${code.toString(16)}`);
    expect(terminalText('Lamp \u202e5$ ton 99$')).toBe('Lamp \\u202e5$ ton 99$');
    expect(terminalText('\u05de\u05e0\u05d5\u05e8\u05d4 \u200f42\u200e')).toBe(
      '\u05de\u05e0\u05d5\u05e8\u05d4 \u200f42\u200e',
    );
    const value = { title: 'a\u2066b\u202ec' };
    expect(JSON.parse(terminalText(JSON.stringify(value)))).toEqual(value);
  });

  it('is JSON-neutral: JSON text escaped reads back as the exact strings', () => {
    const value = {
      title: HOSTILE,
      all: Array.from({ length: 0xa0 }, (_, i) => String.fromCharCode(i)).join(''),
    };
    const escaped = terminalText(JSON.stringify(value));
    expect(escaped).not.toMatch(CONTROL);
    expect(JSON.parse(escaped)).toEqual(value);
  });
});

describe('haggle show prints a hostile run file as text', () => {
  it('the list, the dialogue and an error that quotes the file hold no control character', async () => {
    const { path, messageSession } = await hostileRun();
    const list = captureIo();
    expect(await runCli(['show', path], list)).toBe(0);
    expect(list.out()).toContain('\\u001b]0;pwned\\u0007');
    expect(list.out()).not.toMatch(CONTROL);

    for (const session of ['0', String(messageSession)]) {
      const dialogue = captureIo();
      expect(await runCli(['show', path, '--session', session], dialogue)).toBe(0);
      expect(dialogue.out()).toContain('\\u009b31mred');
      expect(dialogue.out()).not.toMatch(CONTROL);
    }

    // The unknown-session error quotes the file's session ids.
    const missing = captureIo();
    expect(await runCli(['show', path, '--session', 'nope'], missing)).toBe(2);
    expect(missing.err()).toContain('s0Lamp \\u001b]0;pwned');
    expect(missing.err()).not.toMatch(CONTROL);
  });

  it('--json keeps the exact strings', async () => {
    const { path, messageSession } = await hostileRun();
    const list = captureIo();
    expect(await runCli(['show', path, '--json'], list)).toBe(0);
    expect(list.out()).not.toMatch(CONTROL);
    const rows = JSON.parse(list.out()) as { index: number; title: string; sessionId: string }[];
    expect(rows.find((row) => row.index === 0)).toMatchObject({ title: HOSTILE, sessionId: `s0${HOSTILE}` });

    const dialogue = captureIo();
    expect(await runCli(['show', path, '--session', String(messageSession), '--json'], dialogue)).toBe(0);
    const transcript = JSON.parse(dialogue.out()) as { title: string; turns: { message: string }[] };
    expect(transcript.title).toBe(HOSTILE);
    expect(transcript.turns.map((turn) => turn.message)).toContain(HOSTILE);
  });
});

describe('haggle own sequences pass the boundary', () => {
  it("the progress bar's carriage return and erase-line reach a terminal unescaped", () => {
    let written = '';
    const io = terminalSafeIo({
      stdout: { write: () => true, isTTY: true },
      stderr: { write: (text: string) => (written += text), isTTY: true },
      readStdin: () => '',
    });
    const bar = new ProgressBar(io.stderr, 'simulate', { now: () => 0 });
    expect(bar.enabled).toBe(true);
    bar.update(1, 2);
    expect(written).toContain('\r');
    expect(written).toContain('\u001b[K');
  });
});
