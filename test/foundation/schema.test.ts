import { readFileSync } from 'node:fs';
import path from 'node:path';
import { printedSchema } from '../../src/schema';

test('schema.graphql is the printed, sorted schema (run `npm run schema:print` after changing the schema)', () => {
  const committed = readFileSync(path.resolve(__dirname, '../../schema.graphql'), 'utf8');
  expect(committed).toBe(printedSchema());
});
