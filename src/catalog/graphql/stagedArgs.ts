/** The arguments by which a product write goes to the staged version or to both versions (docs/staged-changes.md). */

import { builder } from '../../api/graphql/builder';
import type { StagedWriteCheck, WriteTarget } from '../services/stagedChanges';

const StagedApplyTo = builder.enumType('StagedApplyTo', {
  description: 'Which versions a live write (staged false) changes while the product has staged changes',
  values: {
    LIVE: { value: 'live', description: 'The current product only: 409 staged_changes_pending when the write changes anything staged' },
    BOTH: { value: 'both', description: 'The current product and the staged version, in one transaction' },
  } as const,
});

export { StagedApplyTo };

export const STAGED_ARG_DOC =
  'true: the write changes the staged version only, with the same checks; the current product, the public API and product.updated keep the current one. expectedVersion applies as always (a product has one version).';
export const APPLY_TO_ARG_DOC =
  'For a live write to a product with staged changes: BOTH applies it to the staged version too (else 409 staged_changes_pending when it changes anything staged)';

/** Where the arguments send the write. */
export const writeTarget = (args: { staged?: boolean | null; applyTo?: unknown }): WriteTarget => ({ staged: args.staged ?? false, applyTo: (args.applyTo as WriteTarget['applyTo']) ?? null });

const present = (o: object) => Object.entries(o).filter(([, v]) => v !== undefined).map(([k]) => k);

/** The staging check of an input object: its sent fields outside `stageable` are never staged; the others touch what is. */
export function inputCheck(input: object, stageable: readonly string[], prefix = ''): StagedWriteCheck {
  const sent = present(input);
  return { unstageable: sent.filter((k) => !stageable.includes(k)).map((k) => prefix + k), touchesStaged: sent.some((k) => stageable.includes(k) && k !== 'id') };
}
