/** CLI commands for translations: set one locale of a product, category or attribute, read them, and the status. */

import { findStore } from '../../access/services/stores';
import { STORE_REF } from '../../access/cli/stores';
import type { RequestContext } from '../../platform/context';
import { type CliCommand, choiceFlag, defineCommand, jsonObjectFlag, optionalFlag, requiredFlag, UsageError, wholeNumberFlag } from '../../api/cli/command';
import { readTranslations, setAttributeTranslation, setCategoryTranslation, type TranslationTarget } from '../services/configTranslations';
import { setProductTranslation } from '../services/productTranslations';
import { STATUS_PAGE, translationStatus } from '../services/translationStatus';
import { TRANSLATION_KINDS } from '../services/translations';

const storeFlag = requiredFlag('--store <store>', STORE_REF);
const modeFlag = choiceFlag('--mode <mode>', 'the catalog of the products: live (default) or test', ['live', 'test']);
const inMode = (ctx: RequestContext, mode?: string): RequestContext => (mode === 'test' ? { ...ctx, mode: 'test' } : ctx);
const targetFlags = [
  optionalFlag('--product <id>', 'a product, by id'),
  optionalFlag('--category <slug>', 'a category, by slug or id'),
  optionalFlag('--attribute <code>', 'an attribute, by code or id'),
];

type TargetFlags = { product?: string; category?: string; attribute?: string };

function targetOf(f: TargetFlags): TranslationTarget {
  const given = (['product', 'category', 'attribute'] as const).filter((k) => f[k] !== undefined);
  if (given.length !== 1) throw new UsageError('give exactly one of --product, --category or --attribute');
  return { kind: given[0], ref: f[given[0]]! };
}

export const translationCommands: CliCommand[] = [
  defineCommand<TargetFlags & { store: string; locale: string; translation: Record<string, unknown>; mode?: string }>({
    name: 'translations set',
    description:
      "Set a product's, category's or attribute's translation in one of the store's further locales, whole (fields left out have none); prints the resource's translations.",
    options: [
      storeFlag,
      ...targetFlags,
      requiredFlag('--locale <tag>', "one of the store's further locales, e.g. de"),
      jsonObjectFlag(
        '--translation <json>',
        'the translation in the REST API\'s shape: a product\'s {"name","description","seo":{…},"options":{…},"attributes":{…}}, a category\'s {"name"}, an attribute\'s {"name","values":{code: label}}',
      ),
      modeFlag,
    ],
    check: (f) => {
      targetOf(f);
      if (!f.translation) throw new UsageError('--translation is required');
    },
    examples: [`npm run cli -- translations set --store "Ana's" --product 0190a3b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b --locale de --translation '{"name":"Bio-Hemd"}'`],
    run: async (f, ctx) => {
      const storeId = (await findStore(ctx, f.store)).id;
      const target = targetOf(f);
      const scoped = inMode(ctx, f.mode);
      if (target.kind === 'product') await setProductTranslation(scoped, storeId, target.ref, f.locale, f.translation);
      else if (target.kind === 'category') await setCategoryTranslation(ctx, storeId, target.ref, f.locale, f.translation);
      else await setAttributeTranslation(ctx, storeId, target.ref, f.locale, f.translation);
      return readTranslations(scoped, storeId, target);
    },
  }),
  defineCommand<TargetFlags & { store: string; mode?: string }>({
    name: 'translations get',
    description: "A product's, category's or attribute's translations by locale, with their outdated marks.",
    options: [storeFlag, ...targetFlags, modeFlag],
    check: (f) => void targetOf(f),
    examples: [`npm run cli -- translations get --store "Ana's" --category shoes`],
    run: async (f, ctx) => readTranslations(inMode(ctx, f.mode), (await findStore(ctx, f.store)).id, targetOf(f)),
  }),
  defineCommand<{ store: string; locale: string; kind?: (typeof TRANSLATION_KINDS)[number]; limit?: number; after?: string; mode?: string }>({
    name: 'translations status',
    description: 'What is left to translate in a locale: counts per kind, and the items with missing or outdated fields (products, then categories, then attributes).',
    options: [
      storeFlag,
      requiredFlag('--locale <tag>', "one of the store's further locales"),
      choiceFlag('--kind <kind>', 'only this kind', TRANSLATION_KINDS),
      wholeNumberFlag('--limit <n>', `items per page (default ${STATUS_PAGE.default})`, 1, STATUS_PAGE.max),
      optionalFlag('--after <cursor>', 'next_cursor of the previous page'),
      modeFlag,
    ],
    examples: [`npm run cli -- translations status --store "Ana's" --locale de --kind product`],
    run: async (f, ctx) => {
      const page = await translationStatus(inMode(ctx, f.mode), (await findStore(ctx, f.store)).id, f.locale, { kind: f.kind, first: f.limit, after: f.after });
      return {
        locale: page.locale,
        counts: Object.fromEntries(page.counts.map(({ kind, ...c }) => [kind, c])),
        data: page.items.map((i) => ({ kind: i.kind, id: i.id, name: i.name, missing_fields: i.missingFields, outdated_fields: i.outdatedFields })),
        next_cursor: page.hasMore ? page.cursors.at(-1) : null,
      };
    },
  }),
];
