/** What each API scope grants, in the words shown to people and developers. */

import { type Scope, SCOPES } from '../../kernel/access';

/**
 * What each scope lets a credential do today, in the words shown to people granting it (the OAuth
 * consent page) and to developers (GraphQL, OpenAPI, docs/public-api.md). Keep them to what the public API
 * really serves: a scope that will grant more later says so when it does.
 */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'public:read': "See the store's active products (storefront fields: in stock or not, no inventory counts) and the countries where payments are supported",
  'products:read': "See every product of the store's catalog in the credential's mode, drafts and archived ones included, with inventory, variants and SEO",
  'products:write': "Create, change, publish, unpublish and delete products of the store's catalog in the credential's mode (variants, SEO, images); includes products:read",
  'payments:read': 'See the countries where payments are supported, with their currencies',
};

/** "public:read (…); products:read (…)" for descriptions that list the scopes. */
export const describeScopes = (): string => SCOPES.map((s) => `${s}: ${SCOPE_DESCRIPTIONS[s]}`).join('. ');

/**
 * The scopes as the docs show them: a Markdown table of SCOPE_DESCRIPTIONS, the words the consent page shows.
 * Every scope table in the docs is exactly this (test/docs/scopeTable.test.ts), so the two cannot differ.
 */
export const scopeTable = (): string =>
  ['| scope | grants |', '|---|---|', ...SCOPES.map((s) => `| \`${s}\` | ${SCOPE_DESCRIPTIONS[s]} |`)].join('\n');
