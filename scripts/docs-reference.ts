/** `npm run docs:reference`: writes docs/configuration.md and docs/cli.md from the config schema and the command table; a test fails when they drift. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { referenceDocuments } from '../src/docsReference';

for (const [file, text] of Object.entries(referenceDocuments())) {
  writeFileSync(path.resolve(__dirname, '..', file), text);
  console.log(`wrote ${file}`);
}
