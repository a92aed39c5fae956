import { apiKeyCommands } from './apiKeys';
import { changeCommands } from './changes';
import type { CliCommand } from './command';
import { oauthCommands } from './oauth';
import { productCommands } from './products';
import { storeCommands } from './stores';
import { testCatalogCommands } from './testCatalog';
import { uploadCommands } from './uploads';
import { tokenCommands, userCommands } from './users';
import { webhookCommands } from './webhooks';

/** Every CLI command, in the order help lists them. */
export const commands: CliCommand[] = [...userCommands, ...storeCommands, ...tokenCommands, ...apiKeyCommands, ...oauthCommands, ...changeCommands, ...webhookCommands, ...testCatalogCommands, ...productCommands, ...uploadCommands];
