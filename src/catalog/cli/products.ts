/** CLI commands for products: create one, set its attributes, options and variants, bulk import and export. */

import { createReadStream, createWriteStream, readFileSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { SingleBar } from 'cli-progress';
import type { RequestContext } from '../../platform/context';
import { AppError, type FieldError, validationError } from '../../platform/errors';
import { findStore } from '../../access/services/stores';
import { exportProducts } from '../transfer/exporter';
import { PRODUCT_STATUSES, updateProduct } from '../services/products';
import { createProduct } from '../services/productCreate';
import { findProductType } from '../services/productTypes';
import { setProductOptions } from '../services/options';
import { generateVariants, updateVariants, VariantPatchInput } from '../services/variants';
import { PRODUCT_VIEW_INCLUDE, productView, type ProductViewRow, variantView } from '../services/views';
import { type RowError, TRANSFER_FORMATS, type TransferFormat } from '../transfer/format';
import { ERROR_POLICIES, type ErrorPolicy, ImportFileError, importProducts } from '../transfer/importer';
import { camelizeKeys } from '../../api/rest/body';
import { InvalidArgumentError, Option } from 'commander';
import { camelToSnake, snakeToCamel } from '../../platform/naming';
import { type CliCommand, choiceFlag, defineCommand, jsonArrayFlag, jsonObjectFlag, listFlag, optionalFlag, OUTPUT_WRITTEN, required, requiredFlag, Unaccomplished, UsageError } from '../../api/cli/command';
import { STORE_REF } from '../../access/cli/stores';

/** Errors the summary prints; --error-report writes them all. */
const ERRORS_PRINTED = 20;

const formatOf = (file: string, flag?: string): TransferFormat => (flag as TransferFormat | undefined) ?? (/\.(jsonl|ndjson)$/i.test(file) ? 'jsonl' : 'csv');
const modeFlag = () => choiceFlag('--mode <mode>', 'the catalog: live (default) or test', ['live', 'test']);
const inMode = (ctx: RequestContext, mode?: string): RequestContext => (mode === 'test' ? { ...ctx, mode: 'test' } : ctx);
const csvCell = (v: string | number) => (/[",\n\r]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));

/**
 * Rows the import kept, or for a dry run would keep: none when reject_everything met a rejected row. The exit
 * code follows it, a dry run's as the real run's would (as rsync --dry-run or terraform plan answer whether the
 * real run would succeed), so a script can check a file first.
 */
function rowsKept(s: { dryRun: boolean; committed: boolean; errorPolicy: ErrorPolicy; created: number; updated: number; unchanged: number; rejected: number }): number {
  const kept = s.created + s.updated + s.unchanged;
  if (s.dryRun) return s.errorPolicy === 'reject_everything' && s.rejected > 0 ? 0 : kept;
  return s.committed ? kept : 0;
}

/** Writes a line, waiting while the file's buffer is full. */
async function writeLine(out: NodeJS.WritableStream, line: string) {
  if (!out.write(line)) await once(out, 'drain');
}

/**
 * A number flag's value as a number when it is written as one, else as typed: the service then says what is
 * wrong with it, together with every other flag's problem (a parser here would stop at the first).
 */
const numberOrText = (value: string): number | string => (/^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value);

const productTypeFlag = (clears: string) => optionalFlag('--product-type <id or name>', `the product type (its id or name), whose attributes the product's values follow${clears}`);
const attributesFlag = () =>
  jsonObjectFlag('--attributes <json>', 'attribute values as a JSON object {code: value} (null removes a value), checked against the product type, e.g. {"material":"cotton"}');
/** Errors name the product type's field by its flag. */
const PRODUCT_TYPE_FIELD = { productTypeId: '--product-type' };

/** The product type's id, named by id or name; "" is none (null). */
const productTypeId = async (ctx: RequestContext, storeId: string, ref: string | undefined) =>
  ref === undefined ? undefined : ref === '' ? null : (await findProductType(ctx, storeId, ref)).id;

const PRODUCT_REF = 'the product id';

const OPTIONS_FORMAT = 'in order: Name:value,value,… items separated by ";", e.g. "Size:S,M,L;Color:Red,Blue"';
const OPTIONS_HELP =
  `the whole list of options, ${OPTIONS_FORMAT}; ` +
  'or a JSON array of {"name","values","renamed_from","renamed_values"} to rename an option or its values (variants follow); "" or [] removes every option';

/** `Size:S,M,L;Color:Red,Blue` or a JSON array → the options as PUT …/options takes them (the service checks them); "" is none. */
function parseOptionsFlag(text: string): unknown[] {
  if (text.trim().startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!Array.isArray(parsed)) throw new InvalidArgumentError('must be Name:value,value items separated by ";" or a JSON array of {"name", "values"}.');
    return parsed;
  }
  return text
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((item) => {
      const at = item.indexOf(':');
      if (at < 1) throw new InvalidArgumentError(`"${item}" needs the option's name, then its values (Name:value,value).`);
      return { name: item.slice(0, at).trim(), values: item.slice(at + 1).split(',').map((v) => v.trim()).filter(Boolean) };
    });
}

const PRICES_FORMAT = 'CUR=amount or CUR=amount:compare_at_amount, comma-separated, in further currencies of the store with their minor-unit digits, e.g. "JPY=1200,KWD=1.250:1.500"';

/** `JPY=1200,KWD=1.250:1.500` → the prices as the services take them (they check currencies and digits); "" is none. */
function parsePricesFlag(text: string): { currency: string; amount: string; compareAtAmount?: string }[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((item) => {
      const m = /^([^=\s]+)\s*=\s*([^:\s]*)(?::\s*(\S*))?$/.exec(item);
      if (!m) throw new InvalidArgumentError(`"${item}" must be CUR=amount or CUR=amount:compare_at_amount (e.g. JPY=1200).`);
      return { currency: m[1], amount: m[2], ...(m[3] ? { compareAtAmount: m[3] } : {}) };
    });
}

const pricesFlag = (what: string) => new Option('--prices <prices>', `${what}: ${PRICES_FORMAT}`).argParser(parsePricesFlag);

const OPTION_KEYS = ['name', 'values', 'renamedFrom', 'renamedValues'];
const VARIANT_PATCH_KEYS = Object.keys(VariantPatchInput.shape);
/** What a variant read shows that a bulk update ignores (as PATCH …/variants does): the output of update-variants can be sent back. */
const VARIANT_READ_ONLY = ['created_at', 'updated_at', 'product_id'];

/**
 * The objects of a JSON list flag in the services' camelCase, keys under `opaque` (option names, attribute codes)
 * as given; a key the service does not know is an error named as given (`--variants.0.inventory_qty`), all at once.
 */
function jsonItems(list: unknown[], field: string, known: string[], opaque: string[], ignored: string[] = []): unknown[] {
  const errors: FieldError[] = [];
  const items = list.map((item, i) => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) return item;
    const kept = Object.fromEntries(Object.entries(item).filter(([k]) => !ignored.includes(k)));
    for (const k of Object.keys(kept)) {
      if (!known.includes(snakeToCamel(k))) errors.push({ field: `${field}.${i}.${k}`, code: 'unknown_field', message: `is not a known field (known: ${known.map(camelToSnake).join(', ')})` });
    }
    return camelizeKeys(kept, new Set(opaque));
  });
  if (errors.length) throw validationError(errors);
  return items;
}

interface ProductCreateFlags {
  store: string;
  name?: string;
  price?: string;
  description?: string;
  inventoryQuantity?: number | string;
  lowStockThreshold?: number | string;
  status?: string;
  categorySlugs?: string[];
  tags?: string[];
  publishAt?: string;
  unpublishAt?: string;
  productType?: string;
  attributes?: Record<string, unknown>;
  options?: unknown[];
  prices?: unknown[];
  mode?: string;
}

export const productCommands: CliCommand[] = [
  defineCommand<ProductCreateFlags>({
    name: 'products create',
    fieldFlags: PRODUCT_TYPE_FIELD,
    description:
      'Create one product. The flags are checked together: every problem is reported at once, each naming its flag (exit 1, error: validation_failed: --name: …; --price: …).',
    options: [
      requiredFlag('--store <store>', STORE_REF),
      optionalFlag('--name <name>', 'required: 1-255 characters'),
      optionalFlag('--price <price>', 'required: a number >= 0 with at most 2 decimals, e.g. 19.90'),
      listFlag('--category-slugs <slugs>', 'required: comma-separated slugs of categories of the store'),
      optionalFlag('--description <text>', 'at most 20000 characters'),
      optionalFlag('--inventory-quantity <n>', 'a whole number >= 0 (default 0)').argParser(numberOrText),
      optionalFlag('--low-stock-threshold <n>', 'a whole number >= 0 (default 5)').argParser(numberOrText),
      optionalFlag('--status <status>', `${PRODUCT_STATUSES.join(', ')} (default draft)`),
      listFlag('--tags <tags>', 'comma-separated tags'),
      optionalFlag('--publish-at <time>', 'RFC 3339 time with offset, in the future: the product is published then'),
      optionalFlag('--unpublish-at <time>', 'RFC 3339 time with offset, after --publish-at: the product is unpublished then'),
      productTypeFlag(''),
      attributesFlag(),
      pricesFlag("prices beside --price (which is in the store's default currency)"),
      new Option('--options <options>', `the options that define its variants, ${OPTIONS_FORMAT}, or a JSON array of {"name","values"}; the product starts without variants (products generate-variants makes them)`).argParser(parseOptionsFlag),
      modeFlag(),
    ],
    examples: [
      `npm run cli -- products create --store "Ana's" --name "Trail shoe" --price 89.90 --category-slugs shoes --inventory-quantity 12`,
      `npm run cli -- products create --store "Ana's" --name "Linen tee" --price 29 --category-slugs shirts --product-type T-shirt --attributes '{"material":"linen"}' --options "Size:S,M,L"`,
    ],
    run: async ({ store, mode, productType, options, ...input }, ctx) => {
      const storeId = (await findStore(ctx, store)).id;
      const data = { ...input, productTypeId: await productTypeId(ctx, storeId, productType), options: options && jsonItems(options, 'options', OPTION_KEYS, ['renamed_values']) };
      const product = await createProduct(inMode(ctx, mode), storeId, data as Parameters<typeof createProduct>[2], { include: PRODUCT_VIEW_INCLUDE });
      return productView(product as ProductViewRow, ctx.baseUrl);
    },
  }),
  defineCommand<{ store: string; product: string; productType?: string; attributes?: Record<string, unknown>; mode?: string }>({
    name: 'products set-attributes',
    fieldFlags: PRODUCT_TYPE_FIELD,
    description:
      "Give a product a product type, its attribute values, or both, as PATCH …/products/{productID} does: the values given are merged into the product's, " +
      'and a new type drops the values it does not apply. Every problem is reported at once, each naming its flag and attribute (--attributes.material: …).',
    options: [
      requiredFlag('--store <store>', STORE_REF),
      requiredFlag('--product <id>', 'the product id'),
      productTypeFlag('; "" removes the type and every value'),
      attributesFlag(),
      modeFlag(),
    ],
    examples: [`npm run cli -- products set-attributes --store "Ana's" --product 0190a3b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b --product-type T-shirt --attributes '{"material":"cotton","care":null}'`],
    check: (f) => {
      if (f.productType === undefined && f.attributes === undefined) throw new UsageError('give --product-type, --attributes or both');
    },
    run: async (f, ctx) => {
      const storeId = (await findStore(ctx, f.store)).id;
      const input = { productTypeId: await productTypeId(ctx, storeId, f.productType), attributes: f.attributes };
      const product = await updateProduct(inMode(ctx, f.mode), storeId, f.product, input, {}, { include: PRODUCT_VIEW_INCLUDE });
      return productView(product as ProductViewRow, ctx.baseUrl);
    },
  }),
  defineCommand<{ store: string; product: string; prices: unknown[]; mode?: string }>({
    name: 'products set-prices',
    description:
      "Set a product's prices in the store's further currencies, as PUT …/products/{productID} with `prices` does: the list given replaces the product's (\"\" removes them all). " +
      'No exchange rate is ever applied. Every problem is reported at once (--prices.1.amount: …).',
    options: [requiredFlag('--store <store>', STORE_REF), requiredFlag('--product <id>', PRODUCT_REF), required(pricesFlag('the whole list')), modeFlag()],
    examples: [`npm run cli -- products set-prices --store "Ana's" --product 0190a3b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b --prices "JPY=4900,KWD=10.500:12.000"`],
    run: async (f, ctx) => {
      const storeId = (await findStore(ctx, f.store)).id;
      const product = await updateProduct(inMode(ctx, f.mode), storeId, f.product, { prices: f.prices as never }, {}, { include: PRODUCT_VIEW_INCLUDE });
      return productView(product as ProductViewRow, ctx.baseUrl);
    },
  }),
  defineCommand<{ store: string; product: string; options: unknown[]; deleteVariants?: boolean; mode?: string }>({
    name: 'products set-options',
    description:
      "Set a product's options (Size, Color…), the whole list in order, as PUT …/products/{productID}/options does: renames are carried to its variants, " +
      'an added option gives every variant its first value. A variant left without a value or sharing a combination is error options_in_use naming it (nothing is written) ' +
      'unless --delete-variants. Every problem of the options is reported at once (--options.1.values.2: …).',
    options: [
      requiredFlag('--store <store>', STORE_REF),
      requiredFlag('--product <id>', PRODUCT_REF),
      required(new Option('--options <options>', OPTIONS_HELP).argParser(parseOptionsFlag)),
      optionalFlag('--delete-variants', 'delete, in the same write, the variants the change leaves without a value or with the combination of an earlier variant'),
      modeFlag(),
    ],
    examples: [
      `npm run cli -- products set-options --store "Ana's" --product 0190a3b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b --options "Size:S,M,L;Color:Red,Blue"`,
      `npm run cli -- products set-options --store "Ana's" --product 0190a3b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b --options '[{"name":"Colour","renamed_from":"Color","values":["Crimson","Blue"],"renamed_values":{"Red":"Crimson"}}]'`,
    ],
    run: async (f, ctx) => {
      const storeId = (await findStore(ctx, f.store)).id;
      const options = jsonItems(f.options, 'options', OPTION_KEYS, ['renamed_values']);
      const product = await setProductOptions(inMode(ctx, f.mode), storeId, f.product, options, { deleteVariants: !!f.deleteVariants }, { include: PRODUCT_VIEW_INCLUDE });
      return productView(product as ProductViewRow, ctx.baseUrl);
    },
  }),
  defineCommand<{ store: string; product: string; price?: string; inventoryQuantity?: number | string; skuPattern?: string; attributes?: Record<string, unknown>; mode?: string }>({
    name: 'products generate-variants',
    description:
      "Create every combination of a product's options that no variant has yet, in one write, as POST …/products/{productID}/variants/generate does. " +
      'Prints how many were created and the new variants (created 0 and none when every combination has one). Every problem is reported at once, each naming its flag.',
    options: [
      requiredFlag('--store <store>', STORE_REF),
      requiredFlag('--product <id>', PRODUCT_REF),
      optionalFlag('--price <price>', "each new variant's price, a number >= 0 with at most 2 decimals (default: the product's price)"),
      optionalFlag('--inventory-quantity <n>', "each new variant's inventory, a whole number >= 0 (default 0)").argParser(numberOrText),
      optionalFlag('--sku-pattern <pattern>', "each new variant's SKU: {product}, {position} and {<option name>} are replaced (default {product}-{<option 1>}-{<option 2>}…)"),
      jsonObjectFlag('--attributes <json>', 'variant attribute values as a JSON object {code: value} that every new variant gets, checked against the product type, e.g. {"shade":"blue"}'),
      modeFlag(),
    ],
    examples: [`npm run cli -- products generate-variants --store "Ana's" --product 0190a3b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b --price 24.90 --inventory-quantity 10 --sku-pattern "TEE-{Size}-{Color}"`],
    run: async ({ store, product, mode, ...input }, ctx) => {
      const storeId = (await findStore(ctx, store)).id;
      const variants = await generateVariants(inMode(ctx, mode), storeId, product, input as Parameters<typeof generateVariants>[3]);
      return { product_id: product, created: variants.length, variants: variants.map(variantView) };
    },
  }),
  defineCommand<{ store: string; product: string; variants: unknown[]; mode?: string }>({
    name: 'products update-variants',
    description:
      'Update many variants of a product by id in one write, as PATCH …/products/{productID}/variants does: fields left out are kept, null clears price, compare_at_price, cost, barcode, weight and image_id. ' +
      'Prints the named variants as they are now, in the order named. Every error of every item is reported at once (--variants.2.barcode: …); nothing is written then.',
    options: [
      requiredFlag('--store <store>', STORE_REF),
      requiredFlag('--product <id>', PRODUCT_REF),
      required(
        jsonArrayFlag(
          '--variants <json>',
          'a JSON array of {"id", …fields} in the REST API\'s names (sku, title, options, price, prices, compare_at_price, cost, inventory_quantity, position, barcode, weight, image_id, attributes); prices is a list of {"currency","amount","compare_at_amount"} replacing the variant\'s; @path reads it from a file',
          '[{"id":"…","inventory_quantity":12}]',
        ),
      ),
      modeFlag(),
    ],
    examples: [
      `npm run cli -- products update-variants --store "Ana's" --product 0190a3b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b --variants '[{"id":"0190a3b4-7c1d-7e8f-9a0b-1c2d3e4f5a6b","inventory_quantity":12,"compare_at_price":29.9}]'`,
    ],
    run: async (f, ctx) => {
      const storeId = (await findStore(ctx, f.store)).id;
      const variants = jsonItems(f.variants, 'variants', VARIANT_PATCH_KEYS, ['options', 'attributes'], VARIANT_READ_ONLY);
      return (await updateVariants(inMode(ctx, f.mode), storeId, f.product, variants)).map(variantView);
    },
  }),
  defineCommand<{ file: string; store: string; format?: string; dryRun?: boolean; errorPolicy?: string; mode?: string; errorReport?: string }>({
    name: 'products import',
    argument: { name: 'file', description: 'the CSV or JSON Lines file (docs/import-export.md lists the columns)' },
    description:
      "Create or update a store's products from a CSV or JSON Lines file: a row updates the product its id or sku names, else creates one. " +
      'Shows a progress bar on a terminal (stderr) and prints a summary: rows, created, updated, unchanged, rejected, whether the writes were kept, and the first errors. ' +
      'Exit code 0 when at least one row was imported (an unchanged row counts) or the file had no row; 1 when rows were rejected and none was imported ' +
      '(every row failed, or reject_everything met a failing row), with the summary still printed, as for a file that cannot be read; ' +
      'a --dry-run exits as the same import would.',
    options: [
      requiredFlag('--store <store>', STORE_REF),
      choiceFlag('--format <format>', 'csv or jsonl (default: jsonl for a .jsonl or .ndjson file, else csv)', TRANSFER_FORMATS),
      optionalFlag('--dry-run', 'check and count only: nothing is written, no event recorded'),
      choiceFlag('--error-policy <policy>', 'reject_everything (default: nothing is imported if any row fails) or reject_failed_rows (bad rows are left out)', ERROR_POLICIES),
      modeFlag(),
      optionalFlag('--error-report <path>', 'write every row error to this CSV file (row,field,code,message)'),
    ],
    examples: [`npm run cli -- products import products.csv --store "Ana's" --error-policy reject_failed_rows`, `npm run cli -- products import products.csv --store "Ana's" --dry-run`],
    run: async (f, ctx) => {
      let size: number;
      try {
        size = statSync(f.file).size;
      } catch {
        throw new UsageError(`cannot read ${f.file}`);
      }
      const store = await findStore(ctx, f.store);
      const started = Date.now();
      // On a terminal only (noTTYOutput false): a pipe or a log file gets the summary alone.
      const bar = new SingleBar({ stream: process.stderr, format: 'importing [{bar}] {percentage}% | {rows} rows | {eta_formatted} left', hideCursor: true, noTTYOutput: false });
      bar.start(size, 0, { rows: 0 });
      const report = f.errorReport ? createWriteStream(f.errorReport) : null;
      const pendingLines: string[] = [];
      if (report) pendingLines.push('row,field,code,message\n');
      try {
        const summary = await importProducts(inMode(ctx, f.mode), store.id, createReadStream(f.file, { highWaterMark: 256 * 1024 }), {
          format: formatOf(f.file, f.format),
          dryRun: !!f.dryRun,
          errorPolicy: (f.errorPolicy as ErrorPolicy | undefined) ?? 'reject_everything',
          maxRows: ctx.config.imports.maxRows,
          onProgress: (p) => bar.update(p.bytes, { rows: p.rows }),
          onError: (e: RowError) => void (report && pendingLines.push([e.row, e.field, e.code, e.message].map(csvCell).join(',') + '\n')),
        });
        bar.update(size);
        if (report) for (const line of pendingLines.splice(0)) await writeLine(report, line);
        const result = {
          file: f.file,
          store_id: store.id,
          mode: inMode(ctx, f.mode).mode,
          dry_run: summary.dryRun,
          error_policy: summary.errorPolicy,
          committed: summary.committed,
          rows: summary.rows,
          imported: summary.committed ? summary.created + summary.updated + summary.unchanged : 0,
          created: summary.created,
          updated: summary.updated,
          unchanged: summary.unchanged,
          rejected: summary.rejected,
          error_count: summary.errorCount,
          errors: summary.errors.slice(0, ERRORS_PRINTED),
          error_report: f.errorReport ?? null,
          warnings: summary.warnings,
          seconds: Math.round((Date.now() - started) / 100) / 10,
        };
        if (summary.rejected > 0 && rowsKept(summary) === 0) {
          const why = summary.errorPolicy === 'reject_everything' && summary.rejected < summary.rows ? ' and --error-policy reject_everything keeps none of the others' : '';
          throw new Unaccomplished('rows_rejected', `${summary.dryRun ? 'nothing would be imported' : 'nothing was imported'}: ${summary.rejected} of ${summary.rows} row(s) rejected${why} (errors in the summary)`, result);
        }
        return result;
      } catch (e) {
        if (e instanceof ImportFileError) {
          throw new AppError('validation_failed', `${f.file}: ${e.message}${e.row ? ` (row ${e.row})` : ''} [${e.code}]`, { cause: e });
        }
        throw e;
      } finally {
        bar.stop();
        if (report) await new Promise((r) => report.end(r));
      }
    },
  }),
  defineCommand<{ store: string; format?: string; out?: string; mode?: string; search?: string; category?: string; tags?: string[]; active?: boolean; lowStock?: boolean }>({
    name: 'products export',
    description:
      "Write a store's products (all, or those matching the filter flags, as the product list filters them) as CSV or JSON Lines, in the columns `products import` reads. " +
      'To a file with --out (then a summary is printed), else to stdout.',
    options: [
      requiredFlag('--store <store>', STORE_REF),
      choiceFlag('--format <format>', 'csv (default) or jsonl', TRANSFER_FORMATS),
      optionalFlag('--out <path>', 'write to this file (default: stdout)'),
      modeFlag(),
      optionalFlag('--search <text>', 'only products matching this text'),
      optionalFlag('--category <slug>', 'only products of this category'),
      listFlag('--tags <list>', 'only products carrying any of these comma-separated tags'),
      optionalFlag('--active', 'only active products'),
      optionalFlag('--low-stock', 'only products at or below their low-stock threshold'),
    ],
    examples: [`npm run cli -- products export --store "Ana's" --format csv --out products.csv`],
    run: async (f, ctx) => {
      const store = await findStore(ctx, f.store);
      const format = (f.format as TransferFormat | undefined) ?? (f.out ? formatOf(f.out) : 'csv');
      const out = f.out ? createWriteStream(f.out) : process.stdout;
      let bytes = 0;
      const filter = { search: f.search, category: f.category, tags: f.tags, isActive: f.active ? true : undefined, lowStock: f.lowStock ? true : undefined };
      for await (const chunk of exportProducts(inMode(ctx, f.mode), store.id, filter, format)) {
        bytes += Buffer.byteLength(chunk);
        await writeLine(out, chunk);
      }
      if (!f.out) return OUTPUT_WRITTEN;
      await new Promise((r) => (out as ReturnType<typeof createWriteStream>).end(r));
      return { file: f.out, store_id: store.id, mode: inMode(ctx, f.mode).mode, format, bytes };
    },
  }),
];
