import { mutate, toApiError, type ApiError } from '../../api/client';
import {
  BulkUpdateProductDocument,
  DeleteProductDocument,
  PublishProductDocument,
  UnpublishProductDocument,
  type ProductListItemFragment,
  type ProductUpdateInput,
  type ServiceMode,
} from '../../generated/graphql';
import { splitList } from '../../lib/format';

/**
 * The product list's bulk actions. Each is one write per product (its own event in the product's history), sent
 * with the version the list showed, so a product changed meanwhile is refused rather than overwritten; the
 * outcome lists what failed, product by product.
 */

export type BulkAction =
  | { kind: 'publish' }
  | { kind: 'unpublish' }
  | { kind: 'archive' }
  | { kind: 'delete' }
  | { kind: 'addTags' | 'removeTags'; tags: string }
  | { kind: 'addCategory' | 'removeCategory'; slug: string }
  | { kind: 'priceAmount'; amount: string }
  | { kind: 'pricePercent'; percent: string };

export interface BulkFailure {
  id: string;
  name: string;
  error: ApiError;
}

export interface BulkOutcome {
  summary: string;
  failures: BulkFailure[];
}

const VERBS: Record<BulkAction['kind'], string> = {
  publish: 'Published',
  unpublish: 'Unpublished',
  archive: 'Archived',
  delete: 'Deleted',
  addTags: 'Tagged',
  removeTags: 'Removed the tags from',
  addCategory: 'Added the category to',
  removeCategory: 'Removed the category from',
  priceAmount: 'Changed the price of',
  pricePercent: 'Changed the price of',
};

/** A price moved by an amount or a percentage, to cents; NaN when the input is no number. */
export function changedPrice(price: string, action: Extract<BulkAction, { kind: 'priceAmount' | 'pricePercent' }>): number {
  const base = Number(price);
  const by = Number((action.kind === 'priceAmount' ? action.amount : action.percent).replace(',', '.'));
  if (!Number.isFinite(base) || !Number.isFinite(by) || (action.kind === 'priceAmount' ? action.amount : action.percent).trim() === '') return Number.NaN;
  const next = action.kind === 'priceAmount' ? base + by : base * (1 + by / 100);
  return Math.round(next * 100) / 100;
}

/** The update one product needs for the action, or null when it already is as asked (nothing to write). */
function updateFor(product: ProductListItemFragment, action: BulkAction): ProductUpdateInput | null {
  switch (action.kind) {
    case 'archive':
      return product.status === 'archived' ? null : { status: 'archived' };
    case 'addTags': {
      const tags = [...product.tags, ...splitList(action.tags).filter((t) => !product.tags.includes(t))];
      return tags.length === product.tags.length ? null : { tags };
    }
    case 'removeTags': {
      const drop = new Set(splitList(action.tags));
      const tags = product.tags.filter((t) => !drop.has(t));
      return tags.length === product.tags.length ? null : { tags };
    }
    case 'addCategory':
      return product.categorySlugs.includes(action.slug) ? null : { categorySlugs: [...product.categorySlugs, action.slug] };
    case 'removeCategory':
      return product.categorySlugs.includes(action.slug) ? { categorySlugs: product.categorySlugs.filter((s) => s !== action.slug) } : null;
    case 'priceAmount':
    case 'pricePercent': {
      const next = changedPrice(product.price, action);
      // A price below zero is sent as it is: the service's refusal names it, product by product.
      return { price: Number.isNaN(next) ? product.price : next.toFixed(2) };
    }
    default:
      return null;
  }
}

/** What the categories' service message means here. */
function inWords(error: ApiError, action: BulkAction): ApiError {
  if (action.kind === 'removeCategory' && /category/i.test(Object.values(error.fields)[0] ?? error.message) && /at least one/i.test(Object.values(error.fields)[0] ?? error.message)) {
    return { ...error, message: 'it would be left without a category (a product needs one)' };
  }
  if (error.code === 'precondition_failed') return { ...error, message: 'it changed since the list was loaded: reload and try again' };
  const field = Object.entries(error.fields)[0];
  return field ? { ...error, message: `${field[0] === 'price' ? 'the new price' : field[0]} ${field[1]}` } : error;
}

export async function runBulkAction(storeId: string, mode: ServiceMode, products: ProductListItemFragment[], action: BulkAction): Promise<BulkOutcome> {
  const results = await Promise.all(
    products.map(async (product): Promise<BulkFailure | null> => {
      try {
        const variables = { storeId, mode, id: product.id };
        if (action.kind === 'publish') await mutate(PublishProductDocument, variables);
        else if (action.kind === 'unpublish') await mutate(UnpublishProductDocument, variables);
        else if (action.kind === 'delete') await mutate(DeleteProductDocument, variables);
        else {
          const input = updateFor(product, action);
          if (input) await mutate(BulkUpdateProductDocument, { ...variables, expectedVersion: product.version, input });
        }
        return null;
      } catch (caught) {
        return { id: product.id, name: product.name, error: inWords(toApiError(caught), action) };
      }
    }),
  );
  const failures = results.filter((r): r is BulkFailure => r !== null);
  const n = products.length;
  const summary = `${VERBS[action.kind]} ${n - failures.length} of ${n} product${n === 1 ? '' : 's'}.`;
  return { summary, failures };
}
