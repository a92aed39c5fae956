/** CLI commands for a catalog's collections: list, show, create, update, delete, a manual one's products, export and import. */

import { readFileSync, writeFileSync } from 'node:fs';
import { findStore } from '../../access/services/stores';
import { STORE_REF } from '../../access/cli/stores';
import type { RequestContext } from '../../platform/context';
import { type CliCommand, choiceFlag, defineCommand, jsonArrayFlag, listFlag, optionalFlag, OUTPUT_WRITTEN, required, requiredFlag, Unaccomplished, UsageError, wholeNumberFlag } from '../../api/cli/command';
import { PAGE_LIMITS, productsByIds } from '../services/productList';
import { listCollectionProductIds } from '../services/collectionList';
import { addCollectionProducts, moveCollectionProducts, removeCollectionProducts } from '../services/collectionProducts';
import {
  COLLECTION_KINDS,
  COLLECTION_MATCHES,
  COLLECTION_SORTS,
  collectionView,
  createCollection,
  deleteCollection,
  findCollection,
  listCollections,
  updateCollection,
} from '../services/collections';
import { productIdsByRef } from '../services/productRefs';
import { exportCollections, importCollections } from '../transfer/collections';
import { TRANSFER_FORMATS, type TransferFormat } from '../transfer/format';

const COLLECTION_REF = 'the collection: its slug (any case) or id';
const PRODUCTS_REF = 'comma-separated products, each by id or by its SEO slug';
const RULES_EXAMPLE = '[{"field":"tag","operator":"equals","value":"summer"}]';
const RULES_HELP = `a smart collection's rules, a JSON array (or @file), e.g. ${RULES_EXAMPLE}; the fields and operators are in docs/collections.md`;

const modeFlag = () => choiceFlag('--mode <mode>', 'the catalog: live (default) or test', ['live', 'test']);
const inMode = (ctx: RequestContext, mode?: string): RequestContext => (mode === 'test' ? { ...ctx, mode: 'test' } : ctx);
const storeFlag = () => requiredFlag('--store <store>', STORE_REF);
const collectionFlag = () => requiredFlag('--collection <slug or id>', COLLECTION_REF);

/** The store's id and the catalog's context, as every command starts. */
async function catalog(ctx: RequestContext, f: { store: string; mode?: string }) {
  return { c: inMode(ctx, f.mode), storeId: (await findStore(ctx, f.store)).id };
}

type Shared = { store: string; mode?: string; collection: string };
type Fields = { title?: string; slug?: string; description?: string; rules?: unknown[]; match?: string; sort?: string; published?: boolean };

const fieldOptions = () => [
  optionalFlag('--slug <slug>', 'lowercase letters, digits and single hyphens, unique in the catalog (default: from the title)'),
  optionalFlag('--description <text>', 'what the storefront shows under its title'),
  jsonArrayFlag('--rules <json>', RULES_HELP, RULES_EXAMPLE),
  choiceFlag('--match <match>', 'whether a product must match all rules (default) or any', COLLECTION_MATCHES),
  choiceFlag('--sort <sort>', 'the order of its products (default: manual for manual collections, newest for smart ones)', COLLECTION_SORTS),
];

export const collectionCommands: CliCommand[] = [
  defineCommand<{ store: string; mode?: string }>({
    name: 'collections list',
    description: "List a catalog's collections, newest first, each with its product count and whether it is published.",
    options: [storeFlag(), modeFlag()],
    examples: [`npm run cli -- collections list --store "Ana's"`],
    run: async (f, ctx) => {
      const { c, storeId } = await catalog(ctx, f);
      const rows = [];
      for (let page = 1; ; page++) {
        const got = await listCollections(c, storeId, { page, perPage: PAGE_LIMITS.perPage.max });
        rows.push(...got.rows);
        if (!got.rows.length || rows.length >= got.total) return rows.map(collectionView);
      }
    },
  }),
  defineCommand<Shared & { products?: boolean; page?: number }>({
    name: 'collections show',
    description: 'Show one collection: its rules, sort, count, membership state and translations; --products adds a page of its products (id, name, status) in its sort.',
    options: [
      storeFlag(),
      collectionFlag(),
      optionalFlag('--products', 'add one page (100) of its products, in its sort'),
      wholeNumberFlag('--page <n>', 'the page of products --products shows (default 1)', PAGE_LIMITS.page.min, PAGE_LIMITS.page.max),
      modeFlag(),
    ],
    examples: [`npm run cli -- collections show --store "Ana's" --collection summer-sale --products`],
    run: async (f, ctx) => {
      const { c, storeId } = await catalog(ctx, f);
      const collection = await findCollection(c, storeId, f.collection);
      if (!f.products) return collectionView(collection);
      const page = await listCollectionProductIds(c, storeId, collection, {}, { page: f.page ?? 1, perPage: PAGE_LIMITS.perPage.max });
      const rows = await productsByIds(c, page.ids, { select: { id: true, name: true, status: true } });
      return { ...collectionView(collection), products: rows.map((p) => ({ id: p.id, name: p.name, status: p.status })), products_page: { page: page.page, has_more: page.hasMore } };
    },
  }),
  defineCommand<{ store: string; mode?: string; title: string; kind: 'manual' | 'smart'; published?: boolean } & Fields>({
    name: 'collections create',
    description:
      'Create a collection: manual (an ordered list: add products with collections add-products) or smart (the products its --rules match, kept exact by every product write). ' +
      'Every problem of the flags is reported at once, each naming its flag.',
    options: [
      storeFlag(),
      requiredFlag('--title <title>', 'its title (1-255 characters)'),
      required(choiceFlag('--kind <kind>', 'manual or smart (cannot change later)', COLLECTION_KINDS)),
      ...fieldOptions(),
      optionalFlag('--published', 'the storefront (public API) lists it'),
      modeFlag(),
    ],
    examples: [
      `npm run cli -- collections create --store "Ana's" --title "Staff picks" --kind manual --published`,
      `npm run cli -- collections create --store "Ana's" --title "Under 50" --kind smart --rules '[{"field":"price","operator":"less_than","value":50}]' --sort price_asc`,
    ],
    run: async ({ store, mode, ...input }, ctx) => {
      const { c, storeId } = await catalog(ctx, { store, mode });
      return collectionView(await createCollection(c, storeId, input as Parameters<typeof createCollection>[2]));
    },
  }),
  defineCommand<Shared & Fields>({
    name: 'collections update',
    description: "Change a collection's title, slug, description, rules (the list given replaces the list; membership is recomputed), match, sort, or publish or unpublish it.",
    options: [
      storeFlag(),
      collectionFlag(),
      optionalFlag('--title <title>', 'new title (1-255 characters)'),
      ...fieldOptions(),
      // The positive flag before its --no- form, so that neither given leaves it unchanged.
      optionalFlag('--published', 'publish it: the storefront lists it'),
      optionalFlag('--no-published', 'unpublish it: the storefront no longer lists it'),
      modeFlag(),
    ],
    examples: [`npm run cli -- collections update --store "Ana's" --collection under-50 --rules '[{"field":"price","operator":"less_than","value":40}]' --published`],
    check: (f) => {
      const { store: _store, collection: _collection, mode: _mode, ...changes } = f;
      if (Object.values(changes).every((v) => v === undefined)) throw new UsageError('give at least one of --title, --slug, --description, --rules, --match, --sort, --published or --no-published');
    },
    run: async ({ store, mode, collection, ...input }, ctx) => {
      const { c, storeId } = await catalog(ctx, { store, mode });
      return collectionView(await updateCollection(c, storeId, collection, input as Parameters<typeof updateCollection>[3]));
    },
  }),
  defineCommand<Shared>({
    name: 'collections delete',
    description: 'Delete a collection (its products stay); prints it as it was.',
    options: [storeFlag(), collectionFlag(), modeFlag()],
    examples: [`npm run cli -- collections delete --store "Ana's" --collection staff-picks`],
    run: async (f, ctx) => {
      const { c, storeId } = await catalog(ctx, f);
      const before = collectionView(await findCollection(c, storeId, f.collection));
      await deleteCollection(c, storeId, before.id, { expectedVersion: before.version });
      return before;
    },
  }),
  defineCommand<Shared & { products: string[]; position?: number }>({
    name: 'collections add-products',
    fieldFlags: { productIds: '--products' },
    description: 'Add products to a manual collection, in the order given, at --position (0-based; default: the end); products already in it stay where they are.',
    options: [
      storeFlag(),
      collectionFlag(),
      required(listFlag('--products <refs>', PRODUCTS_REF)),
      wholeNumberFlag('--position <n>', 'where the first goes (0 = first)', 0, 1_000_000),
      modeFlag(),
    ],
    examples: [`npm run cli -- collections add-products --store "Ana's" --collection staff-picks --products trail-runner,sun-hat --position 0`],
    run: async (f, ctx) => {
      const { c, storeId } = await catalog(ctx, f);
      const productIds = await productIdsByRef(c.db, { storeId, mode: c.mode }, f.products);
      return collectionView(await addCollectionProducts(c, storeId, f.collection, { productIds, position: f.position }));
    },
  }),
  defineCommand<Shared & { products: string[] }>({
    name: 'collections remove-products',
    fieldFlags: { productIds: '--products' },
    description: 'Remove products from a manual collection (those not in it are ignored); the rest close up.',
    options: [storeFlag(), collectionFlag(), required(listFlag('--products <refs>', PRODUCTS_REF)), modeFlag()],
    examples: [`npm run cli -- collections remove-products --store "Ana's" --collection staff-picks --products sun-hat`],
    run: async (f, ctx) => {
      const { c, storeId } = await catalog(ctx, f);
      const productIds = await productIdsByRef(c.db, { storeId, mode: c.mode }, f.products);
      return collectionView(await removeCollectionProducts(c, storeId, f.collection, { productIds }));
    },
  }),
  defineCommand<Shared & { product: string; position?: number; before?: string; after?: string }>({
    name: 'collections move-product',
    description: 'Move one product of a manual collection: to --position (0-based; past the end: last), or just --before or --after another member.',
    options: [
      storeFlag(),
      collectionFlag(),
      requiredFlag('--product <ref>', 'the product to move: its id or SEO slug'),
      wholeNumberFlag('--position <n>', 'its new place (0 = first)', 0, 1_000_000),
      optionalFlag('--before <ref>', 'just before this member (id or SEO slug)'),
      optionalFlag('--after <ref>', 'just after this member (id or SEO slug)'),
      modeFlag(),
    ],
    examples: [`npm run cli -- collections move-product --store "Ana's" --collection staff-picks --product sun-hat --before trail-runner`],
    check: (f) => {
      if ([f.position, f.before, f.after].filter((v) => v !== undefined).length !== 1) throw new UsageError('give exactly one of --position, --before or --after');
    },
    run: async (f, ctx) => {
      const { c, storeId } = await catalog(ctx, f);
      const named = (['product', 'before', 'after'] as const).filter((k) => f[k] !== undefined);
      const [productId, other] = await productIdsByRef(c.db, { storeId, mode: c.mode }, named.map((k) => f[k]!), (i) => named[i]);
      const move = { productId, ...(f.position !== undefined ? { position: f.position } : f.before ? { before: other } : { after: other }) };
      return collectionView(await moveCollectionProducts(c, storeId, f.collection, { moves: [move] }));
    },
  }),
  defineCommand<{ store: string; mode?: string; format?: string; out?: string }>({
    name: 'collections export',
    description: "Write a catalog's collections as JSON Lines or CSV, in the columns `collections import` reads (a manual collection's products in order, a smart one's rules). To --out (then a summary is printed), else to stdout.",
    options: [storeFlag(), choiceFlag('--format <format>', 'jsonl (default) or csv', TRANSFER_FORMATS), optionalFlag('--out <path>', 'write to this file (default: stdout)'), modeFlag()],
    examples: [`npm run cli -- collections export --store "Ana's" --out collections.jsonl`],
    run: async (f, ctx) => {
      const { c, storeId } = await catalog(ctx, f);
      const format = (f.format as TransferFormat | undefined) ?? (f.out && /\.csv$/i.test(f.out) ? 'csv' : 'jsonl');
      let text = '';
      for await (const chunk of exportCollections(c, storeId, format)) text += chunk;
      if (!f.out) {
        process.stdout.write(text);
        return OUTPUT_WRITTEN;
      }
      writeFileSync(f.out, text);
      return { file: f.out, store_id: storeId, mode: c.mode, format, bytes: Buffer.byteLength(text) };
    },
  }),
  defineCommand<{ store: string; mode?: string; format?: string; file: string }>({
    name: 'collections import',
    argument: { name: 'file', description: 'the CSV or JSON Lines file' },
    description:
      'Import collections from a file: a record whose id or slug names a collection of the catalog updates it, any other creates one; a manual collection\'s products (ids or SEO slugs) become its list. ' +
      'Each record is its own write: one that fails is reported and left out. Prints a summary (rows, created, updated, unchanged, rejected, errors); exit 1 when records were rejected and none was imported.',
    options: [storeFlag(), choiceFlag('--format <format>', 'jsonl or csv (default: csv for a .csv file, else jsonl)', TRANSFER_FORMATS), modeFlag()],
    examples: [`npm run cli -- collections import collections.jsonl --store "Ana's" --mode test`],
    run: async (f, ctx) => {
      let text: string;
      try {
        text = readFileSync(f.file, 'utf8');
      } catch {
        throw new UsageError(`cannot read ${f.file}`);
      }
      const { c, storeId } = await catalog(ctx, f);
      const format = (f.format as TransferFormat | undefined) ?? (/\.csv$/i.test(f.file) ? 'csv' : 'jsonl');
      const summary = { file: f.file, store_id: storeId, mode: c.mode, ...(await importCollections(c, storeId, text, format)) };
      if (summary.rejected > 0 && summary.rejected === summary.rows) throw new Unaccomplished('rows_rejected', `nothing was imported: ${summary.rejected} of ${summary.rows} record(s) rejected (errors in the summary)`, summary);
      return summary;
    },
  }),
];
