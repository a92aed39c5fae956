import { mutate, query, toApiError, type Mode } from '../../api/client';
import { ProductVersionDocument, ReplaceProductVariantsDocument, SetProductOptionsDocument, UpdateProductVariantsDocument } from '../../generated/graphql';
import { isPending, NOT_STAGEABLE, stagedErrorInWords, targetArgs, type SaveTarget } from './StagedChanges';
import { noVariantErrors, variantErrorsOf, type SavePlan, type VariantErrors, type VariantsDraft } from './variantDraft';

export interface VariantSaveResult {
  /** Where the refused write's problems show; null when everything was saved. */
  errors: VariantErrors | null;
  /** The product changed since it was read: nothing of this section was written. */
  conflict: boolean;
  /** The options write went through (so the draft's options are now the product's). */
  optionsSaved: boolean;
  /** Which part was refused, in the merchant's words. */
  failed: 'options' | 'variants' | null;
  /** A live write refused because the product has staged changes (409 staged_changes_pending): the merchant chooses. */
  pending?: boolean;
}

/**
 * Runs a save plan: the options first, then the variant writes, each on the version the previous one left. To the
 * staged changes (`target` staged) only edits of existing variants and options go: adding or removing variants is
 * live only, so such a plan is refused here and nothing is sent.
 */
export async function writeVariants(
  at: { storeId: string; mode: Mode; productId: string; version: number },
  plan: SavePlan,
  draft: VariantsDraft,
  target: SaveTarget = 'live',
): Promise<VariantSaveResult> {
  const { storeId, mode, productId } = at;
  if (target === 'staged' && (plan.deleteVariants || plan.variants.some((write) => write.kind === 'replace'))) {
    return { errors: { ...noVariantErrors(), general: `Adding or removing variants ${NOT_STAGEABLE}.` }, conflict: false, optionsSaved: false, failed: 'variants' };
  }
  const args = targetArgs(target);
  let version = at.version;
  // A write to both versions, or to the staged one, may move the version by other than one: read where it is.
  const nextVersion = async () => (target === 'live' ? version + 1 : (await query(ProductVersionDocument, { storeId, mode, id: productId })).product.version);
  let optionsSaved = false;
  if (plan.options) {
    try {
      const written = await mutate(SetProductOptionsDocument, { storeId, mode, productId, options: plan.options, deleteVariants: plan.deleteVariants || null, expectedVersion: version, ...args });
      version = written.setProductOptions.version;
      optionsSaved = true;
    } catch (caught) {
      const error = stagedErrorInWords(toApiError(caught));
      if (error.code === 'precondition_failed') return { errors: null, conflict: true, optionsSaved, failed: 'options' };
      if (isPending(error)) return { errors: null, conflict: false, optionsSaved, failed: 'options', pending: true };
      return { errors: variantErrorsOf(error, draft.options, []), conflict: false, optionsSaved, failed: 'options' };
    }
  }
  for (const write of plan.variants) {
    try {
      if (write.kind === 'replace') await mutate(ReplaceProductVariantsDocument, { storeId, mode, productId, variants: write.variants, expectedVersion: version, applyTo: args.applyTo });
      else await mutate(UpdateProductVariantsDocument, { storeId, mode, productId, variants: write.variants, expectedVersion: version, ...args });
      // A live variant write that changes something is one product version (it answers variants, not the product).
      version = await nextVersion();
    } catch (caught) {
      const error = stagedErrorInWords(toApiError(caught));
      if (error.code === 'precondition_failed') return { errors: null, conflict: true, optionsSaved, failed: 'variants' };
      if (isPending(error)) return { errors: null, conflict: false, optionsSaved, failed: 'variants', pending: true };
      return { errors: variantErrorsOf(error, draft.options, write.rowIds, write.variants), conflict: false, optionsSaved, failed: 'variants' };
    }
  }
  return { errors: null, conflict: false, optionsSaved, failed: null };
}
