/** The generated reference pages under docs/, by path: the configuration from its schema, the CLI from its command table, the catalog's limits from their module. */

import { renderCliReference } from './api/cli/reference';
import { commands } from './cliCommands';
import { renderConfigurationReference } from './platform/configReference';
import { renderLimitsReference } from './catalog/limits';

export function referenceDocuments(): Record<string, string> {
  return { 'docs/configuration.md': renderConfigurationReference(), 'docs/cli.md': renderCliReference(commands), 'docs/limits.md': renderLimitsReference() };
}
