/** CLI commands for a store's locales and currencies (src/catalog/services/localization.ts). */

import * as localization from '../services/localization';
import { findStore } from '../../access/services/stores';
import { STORE_REF } from '../../access/cli/stores';
import { type CliCommand, defineCommand, optionalFlag, requiredFlag } from '../../api/cli/command';

const storeFlag = requiredFlag('--store <store>', STORE_REF);
const localeFlag = requiredFlag('--locale <tag>', 'a BCP 47 tag in any case, e.g. de-AT (stored as de-AT)');
const currencyFlag = requiredFlag('--currency <code>', 'an ISO 4217 code in any case, e.g. JPY');

export const localizationCommands: CliCommand[] = [
  defineCommand<{ store: string }>({
    name: 'locales list',
    description: "List a store's locales: the default first, then the others in the order added.",
    options: [storeFlag],
    examples: [`npm run cli -- locales list --store "Ana's"`],
    run: async (f, ctx) => localization.listStoreLocales(ctx, (await findStore(ctx, f.store)).id),
  }),
  defineCommand<{ store: string; locale: string }>({
    name: 'locales add',
    description: 'Add a locale to a store (at most 20 beside the default).',
    options: [storeFlag, localeFlag],
    examples: [`npm run cli -- locales add --store "Ana's" --locale de-AT`],
    run: async (f, ctx) => localization.addStoreLocale(ctx, (await findStore(ctx, f.store)).id, f.locale),
  }),
  defineCommand<{ store: string; locale: string }>({
    name: 'locales set-default',
    description: "Make one of the store's locales its default; the former default stays one of its locales.",
    options: [storeFlag, localeFlag],
    examples: [`npm run cli -- locales set-default --store "Ana's" --locale de`],
    run: async (f, ctx) => localization.setDefaultStoreLocale(ctx, (await findStore(ctx, f.store)).id, f.locale),
  }),
  defineCommand<{ store: string; locale: string; deleteTranslations?: boolean }>({
    name: 'locales remove',
    description: 'Remove a locale from a store; the default cannot be removed. Translations in it need --delete-translations.',
    options: [storeFlag, localeFlag, optionalFlag('--delete-translations', 'delete the translations in this locale with it')],
    examples: [`npm run cli -- locales remove --store "Ana's" --locale de-AT --delete-translations`],
    run: async (f, ctx) => localization.removeStoreLocale(ctx, (await findStore(ctx, f.store)).id, f.locale, { deleteTranslations: f.deleteTranslations ?? false }),
  }),
  defineCommand<{ store: string }>({
    name: 'currencies list',
    description: "List a store's currencies with their minor units: the default first, then the others in the order added.",
    options: [storeFlag],
    examples: [`npm run cli -- currencies list --store "Ana's"`],
    run: async (f, ctx) => localization.listStoreCurrencies(ctx, (await findStore(ctx, f.store)).id),
  }),
  defineCommand<{ store: string; currency: string }>({
    name: 'currencies add',
    description: 'Add a currency to a store (at most 10 beside the default). No exchange rate is ever applied.',
    options: [storeFlag, currencyFlag],
    examples: [`npm run cli -- currencies add --store "Ana's" --currency JPY`],
    run: async (f, ctx) => localization.addStoreCurrency(ctx, (await findStore(ctx, f.store)).id, f.currency),
  }),
  defineCommand<{ store: string; currency: string; deletePrices?: boolean }>({
    name: 'currencies remove',
    description: "Remove a currency from a store; the default (the store's currency) cannot be removed. Prices in it need --delete-prices.",
    options: [storeFlag, currencyFlag, optionalFlag('--delete-prices', 'delete the product and variant prices in this currency with it')],
    examples: [`npm run cli -- currencies remove --store "Ana's" --currency JPY --delete-prices`],
    run: async (f, ctx) => localization.removeStoreCurrency(ctx, (await findStore(ctx, f.store)).id, f.currency, { deletePrices: f.deletePrices ?? false }),
  }),
];
