/**
 * Categories, products and variants as clients see them: snake_case fields named as the REST API names them.
 * REST, the CLI, exports and events (their `data`) all show these.
 */
import type { Prisma } from '../../platform/db/client';
import { snakeToCamel } from '../../platform/naming';
import { imageUrl } from './imageTypes';
import { type PriceView, pricesView } from './prices';

/** How a resource's translations are read for its view: by locale. */
export const BY_LOCALE = { translations: { orderBy: { locale: 'asc' } } } as const;

/** The bookkeeping every translation shows: whether (and which of) its fields are outdated, and when it was written. */
type TranslationRow = { locale: string; outdatedFields: string[]; updatedAt: Date | string };
const translationState = (r: TranslationRow) => ({ outdated: r.outdatedFields.length > 0, outdated_fields: r.outdatedFields, updated_at: new Date(r.updatedAt) });

/** A resource's translations as the merchant API shows them: `{"de": {…}, "fr": {…}}`, by locale. */
const byLocale = <R extends TranslationRow>(rows: R[], view: (r: R) => Record<string, unknown>): Record<string, Record<string, unknown>> =>
  Object.fromEntries(rows.map((r) => [r.locale, { ...view(r), ...translationState(r) }]));

type ProductTranslationRow = TranslationRow & {
  name: string | null;
  description: string | null;
  seoTitle: string | null;
  seoDescription: string | null;
  slug: string | null;
  options: unknown;
  attributes: unknown;
};
/** A product's translations: the product's shape (name, description, seo, options, attributes), by locale. */
export const productTranslationsView = (rows: ProductTranslationRow[]) =>
  byLocale(rows, (r) => ({
    name: r.name,
    description: r.description,
    seo: { title: r.seoTitle, description: r.seoDescription, slug: r.slug },
    options: r.options,
    attributes: r.attributes,
  }));

export const categoryTranslationsView = (rows: (TranslationRow & { name: string | null })[]) => byLocale(rows, (r) => ({ name: r.name }));

export const attributeTranslationsView = (rows: (TranslationRow & { name: string | null; values: unknown })[]) => byLocale(rows, (r) => ({ name: r.name, values: r.values }));

/** A category; with its translations when the row was read with them. */
export const categoryView = (c: { id: string; storeId: string; slug: string; name: string; createdAt: Date; translations?: Parameters<typeof categoryTranslationsView>[0] }) => ({
  id: c.id,
  store_id: c.storeId,
  slug: c.slug,
  name: c.name,
  created_at: c.createdAt,
  ...(c.translations ? { translations: categoryTranslationsView(c.translations) } : {}),
});

/** An attribute as GET …/attributes/{attributeID} shows it. */
export const attributeView = (a: {
  id: string;
  storeId: string;
  code: string;
  name: string;
  type: string;
  unit: string | null;
  values: unknown;
  referenceType: string | null;
  filterable: boolean;
  public: boolean;
  createdAt: Date;
  updatedAt: Date;
  version: number;
  translations?: Parameters<typeof attributeTranslationsView>[0];
}) => ({
  id: a.id,
  code: a.code,
  name: a.name,
  type: a.type,
  unit: a.unit,
  // hex is null but for swatch values, as GraphQL answers it.
  values: (a.values as { value: string; name: string; hex?: string }[]).map((v) => ({ value: v.value, name: v.name, hex: v.hex ?? null })),
  reference_type: a.referenceType,
  filterable: a.filterable,
  public: a.public,
  created_at: a.createdAt,
  updated_at: a.updatedAt,
  version: a.version,
  ...(a.translations ? { translations: attributeTranslationsView(a.translations) } : {}),
});

/** A product type row with its attribute assignments (PRODUCT_TYPE_INCLUDE). */
export type ProductTypeRow = {
  id: string;
  storeId: string;
  name: string;
  createdAt: Date;
  updatedAt: Date;
  version: number;
  attributes: { attributeId: string; level: string; required: boolean; position: number; attribute: { code: string } }[];
};

/** What a product type row includes for productTypeView: its assignments in order, with their codes. */
export const PRODUCT_TYPE_INCLUDE = {
  attributes: { orderBy: { position: 'asc' }, include: { attribute: { select: { code: true } } } },
} as const satisfies Prisma.ProductTypeInclude;

const assignmentsAt = (t: ProductTypeRow, level: 'product' | 'variant') =>
  t.attributes.filter((a) => a.level === level).map((a) => ({ attribute_id: a.attributeId, code: a.attribute.code, required: a.required }));

/** A product type as GET …/product-types/{productTypeID} shows it: the attributes of each level in order. */
export const productTypeView = (t: ProductTypeRow) => ({
  id: t.id,
  name: t.name,
  product_attributes: assignmentsAt(t, 'product'),
  variant_attributes: assignmentsAt(t, 'variant'),
  created_at: t.createdAt,
  updated_at: t.updatedAt,
  version: t.version,
});

/**
 * A resource's REST representation, field by field, in the order clients see it: how a database row gives each
 * field, and how GraphQL selects it. Everything else derives from it: the views REST, events and exports show
 * (viewOf), the selection REST routes that execute GraphQL ask for (selectionOf), REST's spelling of what
 * GraphQL answers (fromGraphQL), and the test that holds the GraphQL types to it.
 */
interface Field<Row> {
  /** The GraphQL field: the camelCase of the REST name unless given. */
  graphql?: string;
  /** The fields of an object (or of each item of a list) under it. */
  of?: Representation<any>;
  /** The value from a row. */
  row: (r: Row, baseUrl: string) => unknown;
  /** Set when the value is a column of the row as it is: the view reads it without a call. */
  column?: string;
  /** The relation of the row the value needs: a row read without it leaves the field out (a write reads only what it may change). */
  relation?: string;
  /** REST's spelling of GraphQL's value: money is a decimal string in GraphQL and a JSON number in REST. */
  fromGraphQL?: (value: any) => unknown;
  /**
   * The GraphQL sub-selection of an object field whose names fromGraphQL renames itself (instead of `of`'s aliases):
   * every alias counts against the operation's alias limit, which the product's REST selection nearly reaches.
   */
  subselection?: string;
}
type Representation<Row> = Record<string, Field<Row>>;

/** A column of the row, the REST name's camelCase. */
const column = <Row, K extends keyof Row & string>(key: K) => ({ row: (r: Row) => r[key], column: key });
const money = (v: { toString(): string } | null) => (v == null ? null : Number(v.toString()));

type View<Row> = (row: Row, baseUrl: string) => Record<string, unknown>;
const compiledViews = new WeakMap<object, View<any>>();

/**
 * The representation's view as one function, made once per representation: a column is read in place and each
 * other field has a call site of its own. Views are built for every product of every list page, and one loop
 * calling each field's function through the same site cost several times as much.
 */
function compileView<Row>(representation: Representation<Row>): View<Row> {
  const fields = Object.entries(representation);
  const key = JSON.stringify;
  const body = fields.map(([name, field], i) => {
    const set = `out[${key(name)}] = ${field.column ? `r[${key(field.column)}]` : `f[${i}].row(r, baseUrl)`};`;
    return field.relation ? `if (r[${key(field.relation)}] !== undefined) ${set}` : set;
  });
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- built from the representation's own names, never from input
  return new Function('f', `return function view(r, baseUrl) { const out = {}; ${body.join(' ')} return out; };`)(fields.map(([, field]) => field)) as View<Row>;
}

/** The representation's fields, for a row that has them (a relation's field only when the row was read with it). */
export function viewOf<Row>(representation: Representation<Row>, row: Row, baseUrl: string): Record<string, unknown> {
  let view = compiledViews.get(representation);
  if (!view) compiledViews.set(representation, (view = compileView(representation)));
  return view(row, baseUrl);
}

/** Some of a representation's fields, in its order. */
export function pickFields<R extends Representation<any>, K extends keyof R & string>(representation: R, names: readonly K[]): Pick<R, K> {
  return Object.fromEntries(Object.entries(representation).filter(([name]) => (names as readonly string[]).includes(name))) as Pick<R, K>;
}

/** The GraphQL selection giving the representation, aliased to REST's names. */
export function selectionOf(representation: Representation<any>): string {
  return Object.entries(representation)
    .map(([name, field]) => {
      const graphql = field.graphql ?? snakeToCamel(name);
      const aliased = graphql === name ? name : `${name}: ${graphql}`;
      if (field.subselection) return `${aliased} { ${field.subselection} }`;
      return field.of ? `${aliased} { ${selectionOf(field.of)} }` : aliased;
    })
    .join(' ');
}

/** The fields whose GraphQL value REST spells otherwise, with those of nested objects that have any; made once per representation. */
type Conversions = { convert: [string, (value: any) => unknown][]; nested: [string, Conversions][] };
const conversionPlans = new WeakMap<object, Conversions>();
function conversionsOf(representation: Representation<any>): Conversions {
  let plan = conversionPlans.get(representation);
  if (!plan) {
    plan = { convert: [], nested: [] };
    for (const [name, field] of Object.entries(representation)) {
      if (field.fromGraphQL) plan.convert.push([name, field.fromGraphQL]);
      else if (field.of) {
        const inner = conversionsOf(field.of);
        if (inner.convert.length || inner.nested.length) plan.nested.push([name, inner]);
      }
    }
    conversionPlans.set(representation, plan);
  }
  return plan;
}

function convert(plan: Conversions, data: Record<string, any>): void {
  for (const [name, fn] of plan.convert) if (name in data) data[name] = fn(data[name]);
  for (const [name, inner] of plan.nested) {
    const value = data[name];
    if (Array.isArray(value)) for (const item of value) convert(inner, item);
    else if (value) convert(inner, value);
  }
}

/** REST's spelling of data GraphQL answered with selectionOf's selection; changed in place (it is this request's own result). */
export function fromGraphQL<T extends Record<string, any>>(representation: Representation<any>, data: T): T {
  convert(conversionsOf(representation), data);
  return data;
}

type ImageRow = { id: string; sha256: string; mimeType: string; width: number; height: number; sizeBytes: number; alt: string | null; position: number };
type SeoRow = NonNullable<ProductViewRow['seo']>;
type Money = { toString(): string } | null;
type VariantRow = {
  id: string;
  sku: string;
  title: string;
  options: unknown;
  price: Money;
  inventoryQuantity: number;
  position: number;
  barcode: string | null;
  compareAtPrice: Money;
  cost: Money;
  weightValue: Money;
  weightUnit: string | null;
  imageId: string | null;
  attributes: unknown;
  prices: unknown;
  createdAt: Date;
  updatedAt: Date;
};
type OptionRow = { name: string; values: string[] };

/**
 * Prices in the store's further currencies, as a product or variant shows them: [{currency, amount,
 * compare_at_amount}], decimal strings with the currency's minor-unit digits in GraphQL and REST alike.
 */
const pricesField = <Row extends { prices: unknown }>() => ({
  row: (r: Row) => pricesView(r.prices),
  subselection: 'currency amount compareAtAmount',
  // A REST hot read's data is the view already (as money's Number, the conversion leaves it as it is).
  fromGraphQL: (list: ({ currency: string; amount: string; compareAtAmount: string | null } | PriceView)[]) =>
    list.map((p): PriceView => ('compareAtAmount' in p ? { currency: p.currency, amount: p.amount, compare_at_amount: p.compareAtAmount } : p)),
});
type WeightRow = { value: number; unit: string };

/** An image as its product shows it. */
export const PRODUCT_IMAGE = {
  id: column<ImageRow, 'id'>('id'),
  url: { row: (i: ImageRow, baseUrl: string) => imageUrl(baseUrl, i) },
  width: column<ImageRow, 'width'>('width'),
  height: column<ImageRow, 'height'>('height'),
  mime_type: column<ImageRow, 'mimeType'>('mimeType'),
  size_bytes: column<ImageRow, 'sizeBytes'>('sizeBytes'),
  sha256: column<ImageRow, 'sha256'>('sha256'),
  alt: column<ImageRow, 'alt'>('alt'),
  position: column<ImageRow, 'position'>('position'),
} satisfies Representation<ImageRow>;

/** An image as its own resource: an upload's answer. */
type StandaloneImageRow = ImageRow & { productId: string | null; createdAt: Date };
const { position, ...beforePosition } = PRODUCT_IMAGE;
export const IMAGE = {
  ...beforePosition,
  product_id: column<StandaloneImageRow, 'productId'>('productId'),
  position,
  created_at: column<StandaloneImageRow, 'createdAt'>('createdAt'),
} satisfies Representation<StandaloneImageRow>;

/** A product's SEO record, as GET …/products/{productID}/seo and the product show it. */
export const SEO = {
  title: column<SeoRow, 'title'>('title'),
  description: column<SeoRow, 'description'>('description'),
  slug: column<SeoRow, 'slug'>('slug'),
  canonical_url: column<SeoRow, 'canonicalUrl'>('canonicalUrl'),
  og_image_url: column<SeoRow, 'ogImageUrl'>('ogImageUrl'),
  noindex: column<SeoRow, 'noindex'>('noindex'),
  updated_at: column<SeoRow, 'updatedAt'>('updatedAt'),
} satisfies Representation<SeoRow>;

/** One of a product's options: its name and its values in order. */
export const PRODUCT_OPTION = {
  name: { row: (o: OptionRow) => o.name },
  values: { row: (o: OptionRow) => o.values },
} satisfies Representation<OptionRow>;

/** A variant's shipping weight. */
export const WEIGHT = {
  value: { row: (w: WeightRow) => w.value },
  unit: { row: (w: WeightRow) => w.unit },
} satisfies Representation<WeightRow>;

/**
 * A variant as GET …/products/{productID}/variants shows it. `cost` is the merchant's own figure: REST shows it
 * only to whoever has readCost (src/access/auth/authorization.ts), the events carry it (see restVariant).
 */
export const VARIANT = {
  id: column<VariantRow, 'id'>('id'),
  sku: column<VariantRow, 'sku'>('sku'),
  title: column<VariantRow, 'title'>('title'),
  options: column<VariantRow, 'options'>('options'),
  price: { row: (v: VariantRow) => money(v.price), fromGraphQL: money },
  compare_at_price: { row: (v: VariantRow) => money(v.compareAtPrice), fromGraphQL: money },
  prices: pricesField<VariantRow>(),
  cost: { row: (v: VariantRow) => money(v.cost), fromGraphQL: money },
  inventory_quantity: column<VariantRow, 'inventoryQuantity'>('inventoryQuantity'),
  position: column<VariantRow, 'position'>('position'),
  barcode: column<VariantRow, 'barcode'>('barcode'),
  weight: { of: WEIGHT, row: (v: VariantRow) => (v.weightValue == null ? null : { value: money(v.weightValue), unit: v.weightUnit }) },
  image_id: column<VariantRow, 'imageId'>('imageId'),
  attributes: column<VariantRow, 'attributes'>('attributes'),
  created_at: column<VariantRow, 'createdAt'>('createdAt'),
  updated_at: column<VariantRow, 'updatedAt'>('updatedAt'),
} satisfies Representation<VariantRow>;

/**
 * A variant as the storefront sees it (the public API's product `variants`): what a variant picker needs, no
 * inventory count (in_stock instead) and never `cost`. Its `attributes` hold the values of public attributes
 * only: the GraphQL field leaves out the others, as the public product's own `attributes` does.
 */
export const PUBLIC_VARIANT = {
  ...pickFields(VARIANT, ['id', 'sku', 'title', 'options', 'price', 'compare_at_price']),
  in_stock: { row: (v: VariantRow) => v.inventoryQuantity > 0 },
  ...pickFields(VARIANT, ['position', 'barcode', 'weight', 'image_id', 'attributes']),
} satisfies Representation<VariantRow>;

/** The product exactly as GET /api/v1/merchant/stores/{storeID}/products/{productID} shows it (its `data`). */
export const PRODUCT = {
  id: column<ProductViewRow, 'id'>('id'),
  name: column<ProductViewRow, 'name'>('name'),
  description: column<ProductViewRow, 'description'>('description'),
  // money: a storefront product read in a further currency may have no price there (null).
  price: { row: (p: ProductViewRow) => Number(p.price), fromGraphQL: money },
  currency: { row: (p: ProductViewRow) => p.store.currency, relation: 'store' },
  prices: pricesField<ProductViewRow>(),
  inventory_quantity: column<ProductViewRow, 'inventoryQuantity'>('inventoryQuantity'),
  low_stock_threshold: column<ProductViewRow, 'lowStockThreshold'>('lowStockThreshold'),
  status: column<ProductViewRow, 'status'>('status'),
  is_active: { row: (p: ProductViewRow) => p.status === 'active' },
  published_at: column<ProductViewRow, 'publishedAt'>('publishedAt'),
  publish_at: column<ProductViewRow, 'publishAt'>('publishAt'),
  unpublish_at: column<ProductViewRow, 'unpublishAt'>('unpublishAt'),
  category_slugs: { row: (p: ProductViewRow) => p.categories.map((c) => c.category.slug).sort(), relation: 'categories' },
  tags: column<ProductViewRow, 'tags'>('tags'),
  options: { ...column<ProductViewRow, 'options'>('options'), of: PRODUCT_OPTION },
  product_type_id: column<ProductViewRow, 'productTypeId'>('productTypeId'),
  attributes: column<ProductViewRow, 'attributes'>('attributes'),
  variants_count: { row: (p: ProductViewRow) => p._count.variants, relation: '_count' },
  has_staged_changes: column<ProductViewRow, 'hasStagedChanges'>('hasStagedChanges'),
  version: column<ProductViewRow, 'version'>('version'),
  created_at: column<ProductViewRow, 'createdAt'>('createdAt'),
  updated_at: column<ProductViewRow, 'updatedAt'>('updatedAt'),
  images: { of: PRODUCT_IMAGE, row: (p: ProductViewRow, baseUrl: string) => p.images.map((i) => viewOf(PRODUCT_IMAGE, i, baseUrl)), relation: 'images' },
  seo: { of: SEO, row: (p: ProductViewRow, baseUrl: string) => p.seo && viewOf(SEO, p.seo, baseUrl), relation: 'seo' },
  translations: { row: (p: ProductViewRow) => productTranslationsView(p.translations), relation: 'translations' },
} satisfies Representation<ProductViewRow>;

/** What a product row must include for productView: the relations the REST product shows. */
export const PRODUCT_VIEW_INCLUDE = {
  store: { select: { currency: true } },
  categories: { select: { category: { select: { slug: true } } } },
  images: { orderBy: [{ position: 'asc' }, { createdAt: 'asc' }] },
  seo: true,
  _count: { select: { variants: true } },
  ...BY_LOCALE,
} as const satisfies Prisma.ProductInclude;

export type ProductViewRow = Prisma.ProductGetPayload<{ include: typeof PRODUCT_VIEW_INCLUDE }>;

type ViewOf<R extends Representation<any>> = { [K in keyof R]: ReturnType<R[K]['row']> };
type ProductView = ViewOf<typeof PRODUCT>;

/** The product as REST shows it (PRODUCT), from its full row. */
export const productView = (p: ProductViewRow, baseUrl: string) => viewOf(PRODUCT, p, baseUrl) as ProductView;

/** A product row with its own columns and any of the relations its representation shows. */
type ProductRelation = 'store' | 'categories' | 'images' | 'seo' | '_count' | 'translations';
export type ProductPartsRow = Omit<ProductViewRow, ProductRelation> & Partial<Pick<ProductViewRow, ProductRelation>>;

/**
 * What of the REST product a row holds: its own fields always, a relation's
 * field only when the row was read with it. A write reads only the parts it
 * may change, and compares those.
 */
export const productParts = (p: ProductPartsRow, baseUrl: string) => viewOf(PRODUCT, p as ProductViewRow, baseUrl) as Partial<ProductView> & Omit<ProductView, 'currency' | 'category_slugs' | 'variants_count' | 'images' | 'seo' | 'translations'>;

/** A variant as GET …/products/{productID}/variants shows it (VARIANT). */
export const variantView = (v: VariantRow) => viewOf(VARIANT, v, '') as ViewOf<typeof VARIANT>;

