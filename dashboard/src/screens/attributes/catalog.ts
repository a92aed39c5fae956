import { useCallback, useEffect, useState } from 'react';
import { query, toApiError, type ApiError } from '../../api/client';
import {
  AttributesDocument,
  ProductTypesDocument,
  type AttributeFieldsFragment,
  type AttributeType,
  type ProductTypeFieldsFragment,
} from '../../generated/graphql';
import { slugify } from '../productForm';

/** The store's attributes and product types as the screens and the product editor read them. */

export type AttributeDef = AttributeFieldsFragment;
export type ProductTypeDef = ProductTypeFieldsFragment;

/** Each type in the merchant's words, in the order the type menu offers them. */
export const TYPE_LABELS: Record<AttributeType, string> = {
  plain_text: 'Text',
  rich_text: 'Rich text',
  numeric: 'Number',
  boolean: 'Yes / no',
  date: 'Date',
  date_time: 'Date and time',
  dropdown: 'Single choice (dropdown)',
  multiselect: 'Multiple choice',
  swatch: 'Colour swatch',
  reference: 'Link to a product or category',
};

export const TYPE_HINTS: Record<AttributeType, string> = {
  plain_text: 'A line of text, up to 1,000 characters.',
  rich_text: 'Formatted text: bold, italics, lists, headings and links.',
  numeric: 'A number, with a unit if you give one (cm, l, kg).',
  boolean: 'A yes-or-no switch.',
  date: 'A calendar date.',
  date_time: 'A date with a time of day.',
  dropdown: 'One value from a list you define.',
  multiselect: 'Any number of values from a list you define.',
  swatch: 'One colour from a list you define, each with its name.',
  reference: 'Another product or a category of the store.',
};

/** Types whose values the merchant lists. */
export const hasValues = (type: AttributeType) => type === 'dropdown' || type === 'multiselect' || type === 'swatch';

const PAGE = 100;

/** Reads every page of a list (a store has at most 500 of each). */
async function everyPage<T>(read: (page: number) => Promise<{ items: T[]; hasMore: boolean }>): Promise<T[]> {
  const all: T[] = [];
  for (let page = 1; page <= 10; page++) {
    const { items, hasMore } = await read(page);
    all.push(...items);
    if (!hasMore) break;
  }
  return all;
}

export async function loadAttributes(storeId: string): Promise<AttributeDef[]> {
  return everyPage(async (page) => {
    const data = await query(AttributesDocument, { storeId, page, perPage: PAGE });
    return { items: data.attributes.items, hasMore: data.attributes.meta.hasMore };
  });
}

export async function loadProductTypes(storeId: string): Promise<ProductTypeDef[]> {
  return everyPage(async (page) => {
    const data = await query(ProductTypesDocument, { storeId, page, perPage: PAGE });
    return { items: data.productTypes.items, hasMore: data.productTypes.meta.hasMore };
  });
}

export interface AttributeCatalog {
  attributes: AttributeDef[];
  productTypes: ProductTypeDef[];
}

/** Both lists, loaded together, with a reload. */
export function useAttributeCatalog(storeId: string) {
  const [state, setState] = useState<{ data?: AttributeCatalog; error?: ApiError; loading: boolean }>({ loading: true });
  const reload = useCallback(async () => {
    setState((s) => ({ ...s, loading: true, error: undefined }));
    try {
      const [attributes, productTypes] = await Promise.all([loadAttributes(storeId), loadProductTypes(storeId)]);
      setState({ data: { attributes, productTypes }, loading: false });
    } catch (caught) {
      setState((s) => ({ ...s, error: toApiError(caught), loading: false }));
    }
  }, [storeId]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { ...state, reload };
}

/** "1 product" / "3 products". */
export const products = (n: number) => `${n} product${n === 1 ? '' : 's'}`;

/** A list in words: “A”, “A” and “B”, “A”, “B” and “C”. */
export function quotedList(names: string[]): string {
  const quoted = names.map((n) => `“${n}”`);
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]}`;
}

/** A value key from a name: lower-case letters, digits and single hyphens, as the service accepts. */
export function valueKey(name: string): string {
  return slugify(name).slice(0, 64).replace(/-+$/, '');
}

/** An attribute code from a name: a letter first, then lower-case letters, digits and underscores. */
export function attributeCode(name: string): string {
  const key = valueKey(name).replace(/-/g, '_').replace(/^[^a-z]+/, '');
  return key.slice(0, 64);
}

/** Messages of attribute value checks in the merchant's words (the service may name value keys and codes). */
export function valueMessage(message: string | undefined, attribute?: AttributeDef): string | undefined {
  if (!message) return undefined;
  if (/is required by the product type/.test(message)) return 'is required for this product type';
  if (/must not be empty/.test(message)) return 'must not be empty';
  if (/must be a number/.test(message)) return 'must be a number';
  if (/is not an attribute of the product type/.test(message)) return 'is not part of the chosen product type';
  if (attribute && /must be one of|not among/.test(message)) return `choose one of: ${attribute.values.map((v) => v.name).join(', ')}`;
  return message;
}

export type { ApiError };
