/**
 * Locale tags: BCP 47, validated and written the one canonical way by the runtime's own
 * `Intl.getCanonicalLocales` (`de-at` → `de-AT`, `EN` → `en`, `zh-hant-tw` → `zh-Hant-TW`), so one language
 * is never stored under two spellings. A leaf module: the store's locales, and translations after them, use it.
 */

import Negotiator from 'negotiator';

/** Longest tag accepted: a language, script, region and a variant or two fit; anything longer is not a shop's language. */
export const LOCALE_TAG_MAX = 35;

/** A problem with one field, as services report it (the shape of platform/errors' FieldError). */
export interface LocaleFieldError {
  field: string;
  code: string;
  message: string;
}

/**
 * The canonical form of a BCP 47 tag, or a field error naming `field`. Extensions and private use (`-u-…`,
 * `-x-…`) are refused: a store's locale is a language, optionally with script, region and variant, not a set
 * of formatting preferences.
 */
export function canonicalLocale(tag: string, field: string): { locale: string } | { error: LocaleFieldError } {
  const invalid = (message: string) => ({ error: { field, code: 'invalid_locale', message } });
  const trimmed = tag.trim();
  if (trimmed.length === 0 || trimmed.length > LOCALE_TAG_MAX) return invalid(`must be a BCP 47 language tag such as de, de-AT or pt-BR, at most ${LOCALE_TAG_MAX} characters`);
  let canonical: string;
  try {
    [canonical] = Intl.getCanonicalLocales(trimmed);
  } catch {
    return invalid(`"${trimmed}" is not a BCP 47 language tag (such as de, de-AT or pt-BR)`);
  }
  if (canonical.split('-').some((subtag) => subtag.length === 1)) return invalid(`"${trimmed}" has an extension or private-use part; give the language alone (such as de-AT)`);
  return { locale: canonical };
}

/** The locale's English name for people reading a list ("German (Austria)"); the tag itself when the runtime has none. */
export function localeName(locale: string): string {
  try {
    return new Intl.DisplayNames('en', { type: 'language' }).of(locale) ?? locale;
  } catch {
    return locale;
  }
}

/** What a request names about its language: `?locale=` (or a GraphQL `locale` argument) and the Accept-Language header. */
export interface LocaleRequest {
  /** An explicit tag, already canonical (canonicalLocale); it wins over Accept-Language. */
  locale?: string | null;
  acceptLanguage?: string | null;
}

/**
 * The fallback chain a field is read by: the store's locales in the order the request prefers them, ending at the
 * store's default (whose text every field has, so nothing after it is ever read). One rule for `?locale=`, the
 * `locale` argument and Accept-Language: an explicit tag is read as an Accept-Language of that one range.
 *
 * The ranges (RFC 9110 12.5.4, with q-values) are matched against the store's locales by `negotiator` (the
 * library Express's `req.acceptsLanguages` uses): a range matches a locale equal to it (case-insensitively), its
 * language alone (`de-AT` → `de`), or a regional form of it (`de` → `de-AT`, after an exact match); `*` matches
 * every locale; q=0 excludes what it names. A range the store lacks falls through to the next and finally to the
 * default, which ends every chain even when q=0 names it (a field's only sure text is the default's).
 */
export function localeChain(store: { defaultLocale: string; locales: readonly string[] }, request: LocaleRequest): string[] {
  const ranges = request.locale ?? request.acceptLanguage;
  if (!ranges?.trim()) return [store.defaultLocale];
  const preferred = new Negotiator({ headers: { 'accept-language': ranges } }).languages([store.defaultLocale, ...store.locales]);
  const end = preferred.indexOf(store.defaultLocale);
  return end === -1 ? [...preferred, store.defaultLocale] : preferred.slice(0, end + 1);
}
