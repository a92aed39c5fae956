/** Writes schema.graphql (sorted SDL) from the Pothos schema; a test fails when the committed file drifts. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { printedSchema } from '../src/schema';

writeFileSync(path.resolve(__dirname, '..', 'schema.graphql'), printedSchema());
console.log('wrote schema.graphql');
