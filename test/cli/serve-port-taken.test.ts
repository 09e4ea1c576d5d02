import { createServer } from 'node:net';
import { expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { captureIo } from '../helpers/capture-io.js';
import { fixtureModel } from '../onnx/fixture-model.js';

// Two `haggle serve` on one port: the second must say so and exit 2 (not hang holding its model, not
// print a stack trace). Another process holds the port here, as a first server would.

it('haggle serve on a port another process holds exits 2 with one line naming the address', {
  timeout: 120_000,
}, async () => {
  const holder = createServer();
  await new Promise<void>((listening) => holder.listen(0, '127.0.0.1', listening));
  const port = (holder.address() as { port: number }).port;
  try {
    const io = captureIo();
    const code = await runCli(
      ['serve', '--backend', 'onnx', '--model', fixtureModel(1), '--port', String(port)],
      io,
      new AbortController().signal,
    );
    expect(code).toBe(2);
    expect(io.err()).toMatch(
      new RegExp(`^haggle: cannot listen on 127\\.0\\.0\\.1:${port}: .*EADDRINUSE.*\\n$`),
    );
    expect(io.err().trim().split('\n')).toHaveLength(1);
  } finally {
    holder.close();
  }
});
