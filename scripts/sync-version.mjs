// Writes package.json's version into src/internal/haggle-version.ts; run by `npm version` (the
// `version` script) so a release's run headers and `haggle --version` say the version it carries.
import { readFileSync, writeFileSync } from 'node:fs';

const root = new URL('..', import.meta.url);
const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
const file = new URL('src/internal/haggle-version.ts', root);
const source = readFileSync(file, 'utf8');
const updated = source.replace(/HAGGLE_VERSION = '[^']*'/, `HAGGLE_VERSION = '${version}'`);
if (!updated.includes(`'${version}'`)) throw new Error('sync-version: HAGGLE_VERSION not found');
writeFileSync(file, updated);
console.log(`src/internal/haggle-version.ts: ${version}`);
