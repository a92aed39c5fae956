/**
 * The catalog's published limits, in one place: the services enforce them, the docs (docs/limits.md) and the
 * OpenAPI descriptions quote them. Shopify's are the model: 3 options (we allow 5), 2,048 variants per product.
 */
import { AppError } from '../platform/errors';
import { camelToSnake } from '../platform/naming';

export const CATALOG_LIMITS = {
  /** Options of one product (Size, Colour, …). */
  optionsPerProduct: 5,
  /** Values of one option. */
  valuesPerOption: 100,
  /** Variants of one product, and so the most one generate or bulk update may touch. */
  variantsPerProduct: 2048,
  /** Attributes one store defines. */
  attributesPerStore: 500,
  /** Values of one dropdown, multiselect or swatch attribute. */
  valuesPerAttribute: 500,
  /** Product types of one store. */
  productTypesPerStore: 500,
  /** Attributes one product type assigns (product and variant level together). */
  attributesPerProductType: 100,
  /** Attributes one product list filters by (`attributes[code]=…`). */
  attributeFiltersPerList: 20,
  /** Facets one product list asks for (`facets=…`). */
  facetsPerList: 10,
} as const;

export type CatalogLimit = keyof typeof CATALOG_LIMITS;

/** The 422 for a store-level count that a write would take past its limit. */
export const limitExceeded = (limit: CatalogLimit, message: string) =>
  new AppError('limit_exceeded', message, { details: { limit_name: camelToSnake(limit), limit: CATALOG_LIMITS[limit] } });
