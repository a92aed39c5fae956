/** CLI commands for a store's attributes and product types. */

import { InvalidArgumentError, Option } from 'commander';
import type { RequestContext } from '../../platform/context';
import { isUuid } from '../../kernel/ids';
import { findStore } from '../../access/services/stores';
import { STORE_REF } from '../../access/cli/stores';
import { type CliCommand, choiceFlag, defineCommand, jsonObjectFlag, optionalFlag, required, requiredFlag, UsageError } from '../../api/cli/command';
import { PAGE_LIMITS } from '../services/productList';
import { ATTRIBUTE_TYPES, REFERENCE_TYPES } from '../services/attributeValues';
import { createAttribute, deleteAttribute, findAttribute, listAttributes, updateAttribute } from '../services/attributes';
import { createProductType, deleteProductType, findProductType, listProductTypes, updateProductType } from '../services/productTypes';
import { attributeView, productTypeView } from '../services/views';

const ATTRIBUTE_REF = 'the attribute: its id or its code';
const PRODUCT_TYPE_REF = 'the product type: its id or its name';
const VALUES_HELP =
  'the values of a dropdown, multiselect or swatch attribute, in order: comma-separated value:Name items (a swatch value value:Name:#rrggbb), ' +
  'e.g. cotton:Cotton,linen:Linen; or a JSON array of {"value","name","hex"} when a name holds a comma';
const ASSIGNMENTS_HELP = (level: string) =>
  `the attributes applied to ${level}, in order: comma-separated codes (or ids), each optionally :required, e.g. material,color:required`;

const SWATCH_HEX = /^#[0-9a-f]{6}$/i;

/** `cotton:Cotton,red:Red:#ff0000` or a JSON array → the service's values (it checks them); "" is no values. */
function parseValues(text: string): unknown {
  if (text.trim().startsWith('[')) {
    try {
      return JSON.parse(text);
    } catch {
      throw new InvalidArgumentError('must be value:Name items or a JSON array of {"value", "name", "hex"}.');
    }
  }
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((item) => {
      const [value, ...rest] = item.split(':');
      const hex = rest.length > 1 && SWATCH_HEX.test(rest[rest.length - 1]) ? rest.pop() : undefined;
      const name = rest.join(':').trim();
      if (!name) throw new InvalidArgumentError(`"${item}" needs a display name after the value (value:Name).`);
      return { value: value.trim(), name, ...(hex ? { hex } : {}) };
    });
}

interface Assignment {
  attributeId?: string;
  code?: string;
  required: boolean;
  defaultValue?: unknown;
}

/** `material,color:required` → the product type's assignments; "" is none. */
function parseAssignments(text: string): Assignment[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((item) => {
      const [ref, flag, ...extra] = item.split(':').map((s) => s.trim());
      if (extra.length || (flag !== undefined && flag !== 'required' && flag !== 'optional')) {
        throw new InvalidArgumentError(`"${item}": give an attribute code or id, optionally followed by :required or :optional.`);
      }
      return { ...(isUuid(ref) ? { attributeId: ref } : { code: ref }), required: flag === 'required' };
    });
}

const valuesFlag = () => new Option('--values <values>', VALUES_HELP).argParser(parseValues);
const assignmentsFlag = (name: string, level: string) => new Option(`--${name} <attributes>`, ASSIGNMENTS_HELP(level)).argParser(parseAssignments);
const defaultsFlag = () =>
  jsonObjectFlag(
    '--defaults <json>',
    'a JSON object {code: value}: the value products (or variants) of the type get for an attribute that becomes required while they lack it, e.g. {"fit":"regular"}',
  );

/** Every page of a store's list: the CLI prints the whole list, as `category list` does. */
async function everyRow<R>(list: (page: { page: number; perPage: number }) => Promise<{ rows: R[]; total: number }>): Promise<R[]> {
  const rows: R[] = [];
  for (let page = 1; ; page++) {
    const got = await list({ page, perPage: PAGE_LIMITS.perPage.max });
    rows.push(...got.rows);
    if (got.rows.length === 0 || rows.length >= got.total) return rows;
  }
}

const storeId = async (ctx: RequestContext, store: string) => (await findStore(ctx, store)).id;

const assignmentKey = (a: Assignment) => a.code ?? a.attributeId!;

/** A default must name an attribute of the lists sent: one naming none would be silently ignored. */
function checkDefaults(lists: Assignment[][], defaults: Record<string, unknown> | undefined) {
  const keys = new Set(lists.flat().map(assignmentKey));
  const unknown = Object.keys(defaults ?? {}).filter((k) => !keys.has(k));
  if (unknown.length) throw new UsageError(`--defaults names ${unknown.join(', ')}, which no attribute list given (--product-attributes, --variant-attributes) holds`);
}

/** Each assignment with the default --defaults gives its attribute, if any. */
const withDefaults = (list: Assignment[] | undefined, defaults: Record<string, unknown> | undefined) =>
  list?.map((a) => (defaults && assignmentKey(a) in defaults ? { ...a, defaultValue: defaults[assignmentKey(a)] } : a));

const attributeFieldFlags = { referenceType: '--reference-type' };
const productTypeFieldFlags = { productAttributes: '--product-attributes', variantAttributes: '--variant-attributes' };

export const attributeCommands: CliCommand[] = [
  defineCommand<{ store: string }>({
    name: 'attributes list',
    description: "List a store's attributes by code (attributes are shared by the live and test catalogs).",
    options: [requiredFlag('--store <store>', STORE_REF)],
    examples: [`npm run cli -- attributes list --store "Ana's"`],
    run: async (f, ctx) => {
      const id = await storeId(ctx, f.store);
      return (await everyRow((page) => listAttributes(ctx, id, page))).map(attributeView);
    },
  }),
  defineCommand<{ store: string; attribute: string }>({
    name: 'attributes show',
    description: 'Show one attribute: its type, unit, values, reference type, and whether it is filterable and public.',
    options: [requiredFlag('--store <store>', STORE_REF), requiredFlag('--attribute <id or code>', ATTRIBUTE_REF)],
    examples: [`npm run cli -- attributes show --store "Ana's" --attribute material`],
    run: async (f, ctx) => attributeView(await findAttribute(ctx, await storeId(ctx, f.store), f.attribute)),
  }),
  defineCommand<{ store: string; code: string; name: string; type: string; unit?: string; values?: unknown; referenceType?: string; filterable?: boolean; public?: boolean }>({
    name: 'attributes create',
    fieldFlags: attributeFieldFlags,
    description:
      'Create an attribute of a store. Its code keys the values of products and variants and the list filters (attributes[code]=…); code and type cannot change later. ' +
      'Every problem of the flags is reported at once, each naming its flag.',
    options: [
      requiredFlag('--store <store>', STORE_REF),
      requiredFlag('--code <code>', 'a lower-case letter, then lower-case letters, digits or underscores (at most 64 characters), unique in the store'),
      requiredFlag('--name <name>', 'display name (1-255 characters)'),
      required(choiceFlag('--type <type>', 'the type of its values', ATTRIBUTE_TYPES)),
      optionalFlag('--unit <unit>', 'the unit of a numeric attribute, e.g. ml (at most 32 characters)'),
      valuesFlag(),
      choiceFlag('--reference-type <type>', 'what a reference attribute points at: a product or a category of the store', REFERENCE_TYPES),
      optionalFlag('--filterable', 'lists can filter and facet by it'),
      optionalFlag('--public', 'the public API shows it'),
    ],
    examples: [
      `npm run cli -- attributes create --store "Ana's" --code material --name Material --type dropdown --values cotton:Cotton,linen:Linen --filterable --public`,
      `npm run cli -- attributes create --store "Ana's" --code capacity --name Capacity --type numeric --unit ml`,
    ],
    run: async ({ store, ...input }, ctx) => attributeView(await createAttribute(ctx, await storeId(ctx, store), input as Parameters<typeof createAttribute>[2])),
  }),
  defineCommand<{ store: string; attribute: string; name?: string; unit?: string; values?: unknown; referenceType?: string; filterable?: boolean; public?: boolean }>({
    name: 'attributes update',
    fieldFlags: attributeFieldFlags,
    description:
      'Rename an attribute, or change its unit, values (the list given replaces the list; removing a value products hold is error attribute_value_in_use), reference type, filterable or public. ' +
      'Its code and type cannot change.',
    options: [
      requiredFlag('--store <store>', STORE_REF),
      requiredFlag('--attribute <id or code>', ATTRIBUTE_REF),
      optionalFlag('--name <name>', 'new display name (1-255 characters)'),
      optionalFlag('--unit <unit>', 'new unit of a numeric attribute ("" removes it)'),
      valuesFlag(),
      choiceFlag('--reference-type <type>', 'what a reference attribute points at', REFERENCE_TYPES),
      // Each positive flag before its --no- form, so that neither given leaves the field unchanged.
      optionalFlag('--filterable', 'lists can filter and facet by it'),
      optionalFlag('--no-filterable', 'lists can no longer filter and facet by it'),
      optionalFlag('--public', 'the public API shows it'),
      optionalFlag('--no-public', 'the public API no longer shows it'),
    ],
    examples: [`npm run cli -- attributes update --store "Ana's" --attribute material --values cotton:Cotton,linen:Linen,wool:Wool --no-public`],
    check: (f) => {
      const { store: _store, attribute: _attribute, ...changes } = f;
      if (Object.values(changes).every((v) => v === undefined)) throw new UsageError('give at least one of --name, --unit, --values, --reference-type, --filterable, --no-filterable, --public or --no-public');
    },
    run: async ({ store, attribute, unit, ...input }, ctx) =>
      attributeView(await updateAttribute(ctx, await storeId(ctx, store), attribute, { ...input, unit: unit === '' ? null : unit } as Parameters<typeof updateAttribute>[3])),
  }),
  defineCommand<{ store: string; attribute: string }>({
    name: 'attributes delete',
    description: 'Delete an attribute no product type applies (one in use: error attribute_in_use naming the types, nothing is deleted); prints it as it was.',
    options: [requiredFlag('--store <store>', STORE_REF), requiredFlag('--attribute <id or code>', ATTRIBUTE_REF)],
    examples: [`npm run cli -- attributes delete --store "Ana's" --attribute capacity`],
    run: async (f, ctx) => attributeView(await deleteAttribute(ctx, await storeId(ctx, f.store), f.attribute)),
  }),
];

export const productTypeCommands: CliCommand[] = [
  defineCommand<{ store: string }>({
    name: 'product-types list',
    description: "List a store's product types by name, each with the attributes it applies to products and to their variants.",
    options: [requiredFlag('--store <store>', STORE_REF)],
    examples: [`npm run cli -- product-types list --store "Ana's"`],
    run: async (f, ctx) => {
      const id = await storeId(ctx, f.store);
      return (await everyRow((page) => listProductTypes(ctx, id, page))).map(productTypeView);
    },
  }),
  defineCommand<{ store: string; productType: string }>({
    name: 'product-types show',
    description: 'Show one product type: the attributes it applies to products and to their variants, in order, each required or not.',
    options: [requiredFlag('--store <store>', STORE_REF), requiredFlag('--product-type <id or name>', PRODUCT_TYPE_REF)],
    examples: [`npm run cli -- product-types show --store "Ana's" --product-type "T-shirt"`],
    run: async (f, ctx) => productTypeView(await findProductType(ctx, await storeId(ctx, f.store), f.productType)),
  }),
  defineCommand<{ store: string; name: string; productAttributes?: Assignment[]; variantAttributes?: Assignment[] }>({
    name: 'product-types create',
    fieldFlags: productTypeFieldFlags,
    description: 'Create a product type: which of the store\'s attributes apply to its products and which to their variants, each required or not. Its name is unique in the store.',
    options: [
      requiredFlag('--store <store>', STORE_REF),
      requiredFlag('--name <name>', 'display name (1-255 characters), unique in the store'),
      assignmentsFlag('product-attributes', 'the products of the type'),
      assignmentsFlag('variant-attributes', 'the variants of its products'),
    ],
    examples: [`npm run cli -- product-types create --store "Ana's" --name T-shirt --product-attributes material:required,care --variant-attributes size:required,color`],
    run: async ({ store, ...input }, ctx) => productTypeView(await createProductType(ctx, await storeId(ctx, store), input)),
  }),
  defineCommand<{ store: string; productType: string; name?: string; productAttributes?: Assignment[]; variantAttributes?: Assignment[]; defaults?: Record<string, unknown> }>({
    name: 'product-types update',
    fieldFlags: productTypeFieldFlags,
    description:
      'Rename a product type or replace the attributes of a level (a list given replaces that level\'s list; "" empties it). The products of the type follow in the same write: ' +
      'values of attributes no longer applied are dropped, and an attribute made required needs --defaults for products lacking it (else error attribute_values_missing, nothing is written).',
    options: [
      requiredFlag('--store <store>', STORE_REF),
      requiredFlag('--product-type <id or name>', PRODUCT_TYPE_REF),
      optionalFlag('--name <name>', 'new display name (1-255 characters)'),
      assignmentsFlag('product-attributes', 'the products of the type'),
      assignmentsFlag('variant-attributes', 'the variants of its products'),
      defaultsFlag(),
    ],
    examples: [
      `npm run cli -- product-types update --store "Ana's" --product-type T-shirt --product-attributes material:required,care,fit:required --defaults '{"fit":"regular"}'`,
    ],
    check: (f) => {
      if (f.name === undefined && f.productAttributes === undefined && f.variantAttributes === undefined) throw new UsageError('give --name, --product-attributes or --variant-attributes');
      checkDefaults([f.productAttributes ?? [], f.variantAttributes ?? []], f.defaults);
    },
    run: async (f, ctx) =>
      productTypeView(
        await updateProductType(ctx, await storeId(ctx, f.store), f.productType, {
          name: f.name,
          productAttributes: withDefaults(f.productAttributes, f.defaults),
          variantAttributes: withDefaults(f.variantAttributes, f.defaults),
        }),
      ),
  }),
  defineCommand<{ store: string; productType: string }>({
    name: 'product-types delete',
    description: 'Delete a product type no product has (test catalog included; one in use: error product_type_in_use, nothing is deleted); prints it as it was.',
    options: [requiredFlag('--store <store>', STORE_REF), requiredFlag('--product-type <id or name>', PRODUCT_TYPE_REF)],
    examples: [`npm run cli -- product-types delete --store "Ana's" --product-type T-shirt`],
    run: async (f, ctx) => productTypeView(await deleteProductType(ctx, await storeId(ctx, f.store), f.productType)),
  }),
];
