// Prints vitest's totals as one plain line ("vitest: N passed, N failed, N skipped") that any CI log
// reader understands, from the JSON report written by `npm run test:unit`.
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(new URL('../.cache/vitest-report.json', import.meta.url), 'utf8'));
const skipped = report.numPendingTests + report.numTodoTests;
console.log(`vitest: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`);
if (report.numTotalTests === 0) {
  console.error('no tests ran');
  process.exit(1);
}
