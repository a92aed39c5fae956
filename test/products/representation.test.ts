import {
  getNamedType,
  getNullableType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
} from 'graphql';
import { schema } from '../../src/schema';
import { snakeToCamel } from '../../src/platform/naming';
import { IMAGE, PRODUCT, PRODUCT_IMAGE, SEO, selectionOf, VARIANT } from '../../src/catalog/services/views';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { filePart, makeImage, restUpload } from '../images/images';
import { createProduct, productPath } from './helpers';

/**
 * The REST representations (src/catalog/services/views.ts) are the one definition of each resource's shape:
 * REST's answers, events, exports and the compiled plans derive from them. The GraphQL types must stay with
 * them: every field of a representation is a field of its GraphQL type with a matching type, every GraphQL
 * field is in the representation (or named below as GraphQL's own), and on a real product the REST answer and
 * the GraphQL answer agree value for value.
 */
type Representation = Record<string, { graphql?: string; of?: Representation; row: (r: any, baseUrl: string) => unknown }>;

/** GraphQL fields a REST representation leaves out on purpose. */
const GRAPHQL_ONLY: Record<string, string[]> = {
  // A product's variants are their own REST resource (GET …/products/{productID}/variants).
  // Its type is its own REST resource (GET …/product-types/{productTypeID}); REST shows product_type_id.
  Product: ['variants', 'productType'],
};

const CASES: [string, Representation][] = [
  ['Product', PRODUCT],
  ['Variant', VARIANT],
  ['Seo', SEO],
  ['ProductImage', IMAGE],
];

/** The JSON type a REST client receives for a GraphQL scalar or enum. */
function jsonTypeOf(type: GraphQLOutputType): string {
  const named = getNamedType(type);
  if (isEnumType(named)) return 'string';
  if (!isScalarType(named)) return 'object';
  return ({ ID: 'string', String: 'string', DateTime: 'string', Decimal: 'number', Int: 'number', Float: 'number', Boolean: 'boolean', JSON: 'any' } as Record<string, string>)[named.name] ?? 'unknown';
}

function fieldOf(type: GraphQLObjectType, name: string, field: { graphql?: string }): GraphQLField<unknown, unknown> | undefined {
  return type.getFields()[field.graphql ?? snakeToCamel(name)];
}

describe('the REST representations and the GraphQL types', () => {
  it.each(CASES)('%s: every field of the representation is a GraphQL field, and every GraphQL field is represented', (typeName, representation) => {
    const type = schema.getType(typeName) as GraphQLObjectType;
    expect(isObjectType(type)).toBe(true);
    const missing = Object.entries(representation)
      .filter(([name, field]) => !fieldOf(type, name, field))
      .map(([name]) => name);
    expect(missing).toEqual([]);
    const represented = new Set(Object.entries(representation).map(([name, field]) => field.graphql ?? snakeToCamel(name)));
    const unrepresented = Object.keys(type.getFields()).filter((f) => !represented.has(f) && !(GRAPHQL_ONLY[typeName] ?? []).includes(f));
    // A GraphQL field added to the type decides here whether REST shows it (add it to the representation) or not (GRAPHQL_ONLY).
    expect(unrepresented).toEqual([]);
  });

  it('an image inside a product is the image resource without its product id and creation time', () => {
    expect(Object.keys(IMAGE).filter((k) => !(k in PRODUCT_IMAGE))).toEqual(['product_id', 'created_at']);
  });

  it('nested objects are represented by the representation of their GraphQL type', () => {
    const product = schema.getType('Product') as GraphQLObjectType;
    expect(getNamedType(product.getFields().images.type).name).toBe('ProductImage');
    expect(getNamedType(product.getFields().seo.type).name).toBe('Seo');
    expect(PRODUCT.images.of).toBe(PRODUCT_IMAGE);
    expect(PRODUCT.seo.of).toBe(SEO);
  });
});

describe('on a real product, REST and GraphQL agree field by field', () => {
  let t: TestServer;
  let s: StoreFixture;
  let id: string;

  beforeAll(async () => {
    t = await startTestServer();
    s = await createStoreFixture({ categories: ['shoes', 'bags'] });
    id = (await createProduct(t, s, { name: 'Rich', price: 1234.5, category_slugs: ['shoes', 'bags'], tags: ['a'], publish_at: new Date(Date.now() + 86_400_000).toISOString() })).id;
    const upload = await restUpload(t, s.storeId, s.ownerToken, [{ name: 'product_id', value: id }, { name: 'alt', value: 'Front' }, filePart(await makeImage('png', 20, 10), 'f.png', 'image/png')]);
    expect(upload.status).toBe(201);
    const seo = { title: 'T', description: 'D', slug: 'rich', canonical_url: 'https://shop.example.test/rich', og_image_url: 'https://cdn.example.test/r.png', noindex: true };
    expect((await t.request('PUT', `${productPath(s.storeId, id)}/seo`, { token: s.ownerToken, body: seo })).status).toBe(200);
    const variants = [{ sku: 'R-1', title: 'One', options: { size: '1' }, price: 10.25, inventory_quantity: 3 }, { sku: 'R-2', title: 'Two', options: { size: '2' } }];
    expect((await t.request('PUT', `${productPath(s.storeId, id)}/variants`, { token: s.ownerToken, body: { variants } })).status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Each REST value has the JSON type its GraphQL field promises, and equals GraphQL's value (money as a number). */
  function expectAgree(typeName: string, representation: Representation, rest: Record<string, unknown>, graphql: Record<string, unknown>, path: string) {
    const type = schema.getType(typeName) as GraphQLObjectType;
    expect(Object.keys(rest)).toEqual(Object.keys(representation));
    for (const [name, field] of Object.entries(representation)) {
      const gqlField = fieldOf(type, name, field)!;
      const value = rest[name];
      const where = `${path}.${name}`;
      if (value === null) {
        expect({ where, nullable: !isNonNullType(gqlField.type) }).toEqual({ where, nullable: true });
        expect({ where, value: graphql[name] }).toEqual({ where, value: null });
        continue;
      }
      const nullable = getNullableType(gqlField.type);
      if (isListType(nullable)) {
        expect({ where, list: Array.isArray(value) }).toEqual({ where, list: true });
        const items = value as unknown[];
        const gqlItems = graphql[name] as unknown[];
        expect({ where, length: items.length }).toEqual({ where, length: gqlItems.length });
        items.forEach((item, i) =>
          field.of
            ? expectAgree(getNamedType(nullable).name, field.of, item as Record<string, unknown>, gqlItems[i] as Record<string, unknown>, `${where}.${i}`)
            : expect({ where, item: typeof item }).toEqual({ where, item: jsonTypeOf(nullable.ofType) }),
        );
        if (!field.of) expect({ where, value }).toEqual({ where, value: graphql[name] });
      } else if (field.of) {
        expectAgree(getNamedType(nullable).name, field.of, value as Record<string, unknown>, graphql[name] as Record<string, unknown>, where);
      } else {
        const json = jsonTypeOf(nullable);
        if (json !== 'any') expect({ where, type: typeof value }).toEqual({ where, type: json });
        expect({ where, value }).toEqual({ where, value: json === 'number' ? Number(graphql[name]) : graphql[name] });
      }
    }
  }

  it('the product (compiled plan), its variants and its SEO record', async () => {
    const rest = await t.request('GET', productPath(s.storeId, id), { token: s.ownerToken });
    expect(rest.status).toBe(200);
    // GraphQL's own names, selected without REST's aliases.
    const unaliased = (r: Representation) => selectionOf(r).replace(/\b\w+: (\w+)/g, '$1');
    const gql = await t.graphql(`query($s: ID!, $id: ID!) { product(storeId: $s, id: $id) { ${unaliased(PRODUCT)} variants { ${unaliased(VARIANT)} } } }`, { s: s.storeId, id }, { token: s.ownerToken });
    expect(gql.body.errors).toBeUndefined();
    // Back to REST's names, so values compare by field.
    const restNames = (r: Representation, o: Record<string, any>): Record<string, unknown> =>
      Object.fromEntries(
        Object.entries(r).map(([name, field]) => {
          const v = o[field.graphql ?? snakeToCamel(name)];
          return [name, field.of && v ? (Array.isArray(v) ? v.map((x) => restNames(field.of!, x)) : restNames(field.of, v)) : v];
        }),
      );
    expectAgree('Product', PRODUCT, rest.body.data, restNames(PRODUCT, gql.body.data.product), 'product');
    expect(rest.body.data.images).toHaveLength(1);
    expect(rest.body.data.seo).not.toBeNull();

    const variants = await t.request('GET', `${productPath(s.storeId, id)}/variants`, { token: s.ownerToken });
    expect(variants.status).toBe(200);
    expect(variants.body.data).toHaveLength(2);
    variants.body.data.forEach((v: Record<string, unknown>, i: number) => expectAgree('Variant', VARIANT, v, restNames(VARIANT, gql.body.data.product.variants[i]), `variants.${i}`));
  });
});
