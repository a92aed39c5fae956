/** Every domain's CLI commands, assembled for src/cli.ts. */

import { apiKeyCommands } from './access/cli/apiKeys';
import { changeCommands } from './events/cli/changes';
import type { CliCommand } from './api/cli/command';
import { oauthCommands } from './access/cli/oauth';
import { productCommands } from './catalog/cli/products';
import { storeCommands } from './access/cli/stores';
import { categoryCommands } from './catalog/cli/categories';
import { collectionCommands } from './catalog/cli/collections';
import { attributeCommands, productTypeCommands } from './catalog/cli/attributes';
import { localizationCommands } from './catalog/cli/localization';
import { translationCommands } from './catalog/cli/translations';
import { testCatalogCommands } from './catalog/cli/testCatalog';
import { uploadCommands } from './catalog/cli/uploads';
import { tokenCommands, userCommands } from './access/cli/users';
import { webhookCommands } from './events/cli/webhooks';

/** Every CLI command, in the order help lists them. */
export const commands: CliCommand[] = [...userCommands, ...storeCommands, ...categoryCommands, ...attributeCommands, ...productTypeCommands, ...collectionCommands, ...localizationCommands, ...translationCommands, ...tokenCommands, ...apiKeyCommands, ...oauthCommands, ...changeCommands, ...webhookCommands, ...testCatalogCommands, ...productCommands, ...uploadCommands];
