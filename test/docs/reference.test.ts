import { readFileSync } from 'node:fs';
import path from 'node:path';
import { referenceDocuments } from '../../src/docsReference';
import { EnvSchema } from '../../src/platform/config';

describe('the generated references', () => {
  it.each(Object.entries(referenceDocuments()))('%s is what `npm run docs:reference` writes (run it after changing the config schema, a CLI command or a catalog limit)', (file, text) => {
    expect(readFileSync(path.resolve(__dirname, '../..', file), 'utf8')).toBe(text);
  });

  it('name every variable of the config schema and every CLI command, each with what it does', () => {
    const { 'docs/configuration.md': configuration, 'docs/cli.md': cli } = referenceDocuments();
    for (const name of Object.keys(EnvSchema.shape)) expect(configuration).toMatch(new RegExp(`^\\| \`${name}\` \\| [^|]+ \\| [^|]+ \\| \\S.+ \\|$`, 'm'));
    for (const command of ['user create', 'store create', 'token env', 'key create', 'webhook create', 'products import', 'uploads sweep']) expect(cli).toContain(`### \`${command}`);
  });
});
