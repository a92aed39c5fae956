/** CLI command for a store's change history. */

import { MODES } from '../../kernel/access';
import { RESOURCE_TYPES } from '../../kernel/events';
import { CHANGES_PAGE, listChanges } from '../services/history';
import { changeView } from '../services/views';
import { findStore } from '../../access/services/stores';
import { type CliCommand, choiceFlag, defineCommand, optionalFlag, requiredFlag, wholeNumberFlag } from '../../api/cli/command';
import { STORE_REF } from '../../access/cli/stores';

export const changeCommands: CliCommand[] = [
  defineCommand<{ store: string; resourceType?: string; mode?: string; resourceId?: string; limit?: number; after?: string }>({
    name: 'changes list',
    description: "A store's change history, newest first: who changed what, when and through which entry point. Prints {data, next_cursor}.",
    options: [
      requiredFlag('--store <store>', STORE_REF),
      choiceFlag('--resource-type <type>', 'only changes of this kind of resource', RESOURCE_TYPES),
      choiceFlag('--mode <mode>', 'only changes of this mode (default: both)', MODES),
      optionalFlag('--resource-id <id>', 'only changes of this resource'),
      wholeNumberFlag('--limit <n>', `how many (default ${CHANGES_PAGE.default})`, 1, CHANGES_PAGE.max),
      optionalFlag('--after <cursor>', 'next_cursor of the previous page'),
    ],
    examples: [`npm run cli -- changes list --store "Ana's" --resource-type product --limit 5`],
    run: async (f, ctx) => {
      const store = await findStore(ctx, f.store);
      const page = await listChanges(ctx, store.id, { resourceType: f.resourceType, mode: f.mode, resourceId: f.resourceId, first: f.limit, after: f.after });
      return { data: page.items.map(changeView), next_cursor: page.hasMore ? page.cursors.at(-1) : null };
    },
  }),
];
