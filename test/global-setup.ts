import { unpackChromium } from './helpers/chromium.js';

// Once per test run, before any test file starts: the report's browser test needs Chromium unpacked,
// and two files unpacking it at the same moment would race on the same files.
export default async function setup(): Promise<void> {
  await unpackChromium();
}
