// Preloaded (`node --import`) into a CLI under test: at exit, writes the process's peak resident
// memory in KiB (getrusage's ru_maxrss, worker threads included) to $HAGGLE_TEST_PEAK_FILE. Measured
// from inside so the tests need no GNU time, which a fresh machine may not have.
import { writeFileSync } from 'node:fs';

const file = process.env.HAGGLE_TEST_PEAK_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
