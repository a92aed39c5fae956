/**
 * Attribute values against their definitions, without the database: a product's or a variant's `attributes`
 * ({code: value}) checked against the attributes its product type applies at that level, every error at once,
 * and the values normalised to the one encoding lists, filters and facets read (docs/attributes.md):
 *
 * | type | stored as |
 * |---|---|
 * | plain_text, rich_text | a string (rich_text: sanitized HTML) |
 * | numeric | a JSON number |
 * | boolean | true or false |
 * | date | "YYYY-MM-DD" |
 * | date_time | an ISO 8601 UTC string with milliseconds ("2026-05-01T07:00:00.000Z") |
 * | dropdown, swatch | the chosen value's `value` key |
 * | multiselect | an array of `value` keys, without duplicates, in the attribute's value order |
 * | reference | the referenced product's or category's id |
 *
 * Whether a referenced product or category exists is the caller's to ask (it needs the database): the check
 * returns the references it found.
 */
import type SanitizeHtml from 'sanitize-html';
import type { FieldError } from '../../platform/errors';
import { isUuid } from '../../kernel/ids';
import { parseRfc3339 } from '../../kernel/time';

export const ATTRIBUTE_TYPES = ['plain_text', 'rich_text', 'numeric', 'boolean', 'date', 'date_time', 'dropdown', 'multiselect', 'swatch', 'reference'] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];
/** Types whose values come from the attribute's own list. */
export const LISTED_TYPES: readonly AttributeType[] = ['dropdown', 'multiselect', 'swatch'];
export const REFERENCE_TYPES = ['product', 'category'] as const;
export type ReferenceType = (typeof REFERENCE_TYPES)[number];

/** Longest plain_text value, in characters. */
export const PLAIN_TEXT_MAX = 1_000;
/** Longest rich_text value, in characters, before and after sanitizing (the product description's limit). */
export const RICH_TEXT_MAX = 20_000;

export interface AttributeValueOption {
  value: string;
  name: string;
  hex?: string;
}

/** An attribute as a product type applies it at one level. */
export interface AttributeDefinition {
  id: string;
  code: string;
  type: AttributeType;
  values: AttributeValueOption[];
  referenceType: ReferenceType | null;
  required: boolean;
}

/** A product type's attributes by level, as the checks need them. */
export interface ProductTypeDefinition {
  id: string;
  productAttributes: AttributeDefinition[];
  variantAttributes: AttributeDefinition[];
}

/** A reference value to look up: the field that named it, and what it should be. */
export interface AttributeReference {
  field: string;
  type: ReferenceType;
  id: string;
}

export interface AttributeCheck {
  errors: FieldError[];
  /** The values after the write, normalised, with cleared and dropped codes left out. */
  values: Record<string, unknown>;
  references: AttributeReference[];
}

/** Attribute codes are lower-case keys: safe as JSON keys, URL parameters (`attributes[material]`) and REST field names. */
export const ATTRIBUTE_CODE = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * Basic formatting and links: what a product page renders safely. Everything else (scripts, styles, event
 * handlers, javascript: URLs, iframes) is removed; the text of a removed tag stays, except a script's or style's.
 */
const richTextRules = (sanitizeHtml: typeof SanitizeHtml): SanitizeHtml.IOptions => ({
  allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'sub', 'sup', 'ul', 'ol', 'li', 'a', 'h2', 'h3', 'h4', 'blockquote', 'code', 'pre', 'span'],
  allowedAttributes: { a: ['href', 'title', 'rel', 'target'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }) },
});

/**
 * sanitize-html (with postcss and htmlparser2, about 11 MB of resident memory) and its rules, loaded when a rich
 * text value is first written: a process that never receives one does not hold them.
 */
let sanitizer: { sanitizeHtml: typeof SanitizeHtml; rules: SanitizeHtml.IOptions } | undefined;

/** rich_text as stored: the allowed tags and links of the HTML sent, nothing executable. */
export const sanitizeRichText = (html: string) => {
  if (!sanitizer) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const sanitizeHtml = require('sanitize-html') as typeof SanitizeHtml;
    sanitizer = { sanitizeHtml, rules: richTextRules(sanitizeHtml) };
  }
  return sanitizer.sanitizeHtml(html, sanitizer.rules).trim();
};

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isCalendarDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

type Normalised = { value: unknown } | { error: Omit<FieldError, 'field'> };
const invalid = (code: string, message: string): Normalised => ({ error: { code, message } });
const listed = (a: AttributeDefinition) => a.values.map((v) => v.value).join(', ');

/** One value (never null) in its stored encoding, or the error naming what was wrong. */
function normalise(a: AttributeDefinition, v: unknown): Normalised {
  switch (a.type) {
    case 'plain_text':
    case 'rich_text': {
      if (typeof v !== 'string') return invalid('invalid_type', 'must be a string');
      const max = a.type === 'plain_text' ? PLAIN_TEXT_MAX : RICH_TEXT_MAX;
      if (v.length > max) return invalid('too_big', `must be at most ${max} characters`);
      const text = a.type === 'plain_text' ? v.trim() : sanitizeRichText(v);
      return text === '' ? invalid('too_small', 'must not be empty (null clears the value)') : { value: text };
    }
    case 'numeric':
      return typeof v === 'number' && Number.isFinite(v) ? { value: v } : invalid('invalid_type', 'must be a number');
    case 'boolean':
      return typeof v === 'boolean' ? { value: v } : invalid('invalid_type', 'must be true or false');
    case 'date':
      if (typeof v !== 'string') return invalid('invalid_type', 'must be a date string (YYYY-MM-DD)');
      return isCalendarDate(v) ? { value: v } : invalid('invalid_value', 'must be a date such as 2026-05-01 (YYYY-MM-DD)');
    case 'date_time': {
      if (typeof v !== 'string') return invalid('invalid_type', 'must be an RFC 3339 date-time string');
      const d = parseRfc3339(v.trim());
      return d ? { value: d.toISOString() } : invalid('invalid_value', 'must be an RFC 3339 date-time with an offset, e.g. 2026-05-01T09:00:00+02:00');
    }
    case 'dropdown':
    case 'swatch':
      if (typeof v !== 'string') return invalid('invalid_type', 'must be a string: one of the attribute\'s values');
      return a.values.some((o) => o.value === v) ? { value: v } : invalid('invalid_value', `must be one of: ${listed(a)}`);
    case 'multiselect': {
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) return invalid('invalid_type', 'must be a list of strings: the attribute\'s values');
      const unknown = v.filter((x) => !a.values.some((o) => o.value === x));
      if (unknown.length) return invalid('invalid_value', `${unknown.map((x) => JSON.stringify(x)).join(', ')} not among: ${listed(a)}`);
      const chosen = new Set(v as string[]);
      return { value: a.values.map((o) => o.value).filter((x) => chosen.has(x)) };
    }
    case 'reference':
      if (typeof v !== 'string') return invalid('invalid_type', `must be the id of a ${a.referenceType} (a string)`);
      return isUuid(v) ? { value: v } : invalid('unknown_reference', `no ${a.referenceType} with id ${JSON.stringify(v)} in this store`);
  }
}

/** An empty multiselect is no value, like a key left out. */
const isEmpty = (v: unknown) => v === null || (Array.isArray(v) && v.length === 0);

/**
 * Checks `input` ({code: value}; null clears a value) against the attributes applied at one level, on top of
 * the `current` values (a product's stored ones; {} for a new one). Codes the definitions lack are unknown in
 * the input, and dropped from the current values (a product that changed type keeps only its new type's).
 * Required attributes must have a value afterwards. Errors are named `<prefix>.<code>`; a key that is no
 * attribute code at all is named by the map (`<prefix>`), the key in its message.
 */
export function checkAttributeValues(definitions: AttributeDefinition[], current: Record<string, unknown>, input: Record<string, unknown>, prefix: string): AttributeCheck {
  const byCode = new Map(definitions.map((a) => [a.code, a]));
  const errors: FieldError[] = [];
  const references: AttributeReference[] = [];
  const values: Record<string, unknown> = {};
  for (const [code, v] of Object.entries(current)) if (byCode.has(code) && !isEmpty(v)) values[code] = v;
  for (const [code, v] of Object.entries(input)) {
    const a = byCode.get(code);
    if (!a) {
      errors.push(
        ATTRIBUTE_CODE.test(code)
          ? { field: `${prefix}.${code}`, code: 'unknown_attribute', message: 'is not an attribute of the product type at this level' }
          : { field: prefix, code: 'unknown_attribute', message: `${JSON.stringify(code)} is not an attribute code` },
      );
      continue;
    }
    if (isEmpty(v)) {
      delete values[code];
      continue;
    }
    const r = normalise(a, v);
    if ('error' in r) {
      errors.push({ field: `${prefix}.${code}`, ...r.error });
      continue;
    }
    values[code] = r.value;
    if (a.type === 'reference') references.push({ field: `${prefix}.${code}`, type: a.referenceType!, id: r.value as string });
  }
  for (const a of definitions) {
    if (a.required && !(a.code in values) && !errors.some((e) => e.field === `${prefix}.${a.code}`)) {
      errors.push({ field: `${prefix}.${a.code}`, code: 'required', message: 'is required by the product type' });
    }
  }
  return { errors, values, references };
}

/** Values without a product type: an error unless there are none. */
export function attributesWithoutType(input: Record<string, unknown>, prefix: string): FieldError[] {
  return Object.values(input).some((v) => !isEmpty(v))
    ? [{ field: prefix, code: 'product_type_required', message: 'attribute values need a product type (set product_type_id)' }]
    : [];
}

/**
 * One variant's `attributes` checked against its product type's variant-level attributes (a new set: what the
 * variant write sends replaces what it had). Pure, so the variant writes and the import share it; the caller
 * looks up `references` (unknownReferenceErrors) and stores `values`.
 */
export function variantAttributeErrors(productType: ProductTypeDefinition | null, values: Record<string, unknown>, pathPrefix: string): AttributeCheck {
  if (!productType) return { errors: attributesWithoutType(values, pathPrefix), values: {}, references: [] };
  return checkAttributeValues(productType.variantAttributes, {}, values, pathPrefix);
}
