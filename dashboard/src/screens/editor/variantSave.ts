import { mutate, toApiError, type Mode } from '../../api/client';
import { ReplaceProductVariantsDocument, SetProductOptionsDocument, UpdateProductVariantsDocument } from '../../generated/graphql';
import { variantErrorsOf, type SavePlan, type VariantErrors, type VariantsDraft } from './variantDraft';

export interface VariantSaveResult {
  /** Where the refused write's problems show; null when everything was saved. */
  errors: VariantErrors | null;
  /** The product changed since it was read: nothing of this section was written. */
  conflict: boolean;
  /** The options write went through (so the draft's options are now the product's). */
  optionsSaved: boolean;
  /** Which part was refused, in the merchant's words. */
  failed: 'options' | 'variants' | null;
}

/** Runs a save plan: the options first, then the variant writes, each on the version the previous one left. */
export async function writeVariants(
  at: { storeId: string; mode: Mode; productId: string; version: number },
  plan: SavePlan,
  draft: VariantsDraft,
): Promise<VariantSaveResult> {
  const { storeId, mode, productId } = at;
  let version = at.version;
  let optionsSaved = false;
  if (plan.options) {
    try {
      const written = await mutate(SetProductOptionsDocument, { storeId, mode, productId, options: plan.options, deleteVariants: plan.deleteVariants || null, expectedVersion: version });
      version = written.setProductOptions.version;
      optionsSaved = true;
    } catch (caught) {
      const error = toApiError(caught);
      if (error.code === 'precondition_failed') return { errors: null, conflict: true, optionsSaved, failed: 'options' };
      return { errors: variantErrorsOf(error, draft.options, []), conflict: false, optionsSaved, failed: 'options' };
    }
  }
  for (const write of plan.variants) {
    try {
      if (write.kind === 'replace') await mutate(ReplaceProductVariantsDocument, { storeId, mode, productId, variants: write.variants, expectedVersion: version });
      else await mutate(UpdateProductVariantsDocument, { storeId, mode, productId, variants: write.variants, expectedVersion: version });
      // Each variant write that changes something is one product version (it answers variants, not the product).
      version += 1;
    } catch (caught) {
      const error = toApiError(caught);
      if (error.code === 'precondition_failed') return { errors: null, conflict: true, optionsSaved, failed: 'variants' };
      return { errors: variantErrorsOf(error, draft.options, write.rowIds), conflict: false, optionsSaved, failed: 'variants' };
    }
  }
  return { errors: null, conflict: false, optionsSaved, failed: null };
}
