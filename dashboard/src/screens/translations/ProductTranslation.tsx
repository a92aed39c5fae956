import { type FormEvent, type MutableRefObject, type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import { mutate, query, toApiError, type ApiError } from '../../api/client';
import { Badge, ConfirmButton, EmptyState, ErrorMessage, ErrorSummary, Loading, PageTitle } from '../../components/ui';
import { useToast } from '../../components/toasts';
import {
  ProductTranslationDocument,
  RemoveProductTranslationDocument,
  SetProductTranslationDocument,
  type ProductTranslationFieldsFragment,
  type StoreLocaleFieldsFragment,
} from '../../generated/graphql';
import { languageName } from '../../lib/languages';
import { formatDateTime } from '../../lib/format';
import { Link, navigate, useLeaveGuard, useLocation } from '../../lib/router';
import { useWorkspace } from '../../session';
import { loadAttributes, type AttributeDef } from '../attributes/catalog';
import { translationFieldLabel } from './fieldWords';
import './translations.css';

/** One locale's translation as stored on a product (the `translations` JSON). */
interface StoredTranslation {
  name?: string | null;
  description?: string | null;
  seo?: { title?: string | null; description?: string | null; slug?: string | null } | null;
  options?: Record<string, { name?: string | null; values?: Record<string, string | null> | null } | null> | null;
  attributes?: Record<string, unknown> | null;
  outdated?: boolean;
  outdated_fields?: string[];
  updated_at?: string;
}

/** The editable text, every field a string ('' = no translation). Option fields are keyed by the default-locale text. */
interface TranslationForm {
  name: string;
  description: string;
  seoTitle: string;
  seoDescription: string;
  seoSlug: string;
  options: Record<string, { name: string; values: Record<string, string> }>;
  /** Text attribute values by attribute code. */
  attributes: Record<string, string>;
}

/** The product's plain and rich text attribute values, each with its attribute: the ones a translation can carry. */
function textAttributes(product: ProductTranslationFieldsFragment, defs: AttributeDef[]) {
  const values = (product.attributes ?? {}) as Record<string, unknown>;
  return defs.filter((d) => (d.type === 'plain_text' || d.type === 'rich_text') && typeof values[d.code] === 'string' && values[d.code] !== '').map((d) => ({ def: d, text: values[d.code] as string }));
}

/** Rich text's words without its markup, to read on the left. */
const plainText = (html: string) => new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';

function formOf(product: ProductTranslationFieldsFragment, stored: StoredTranslation | undefined, defs: AttributeDef[]): TranslationForm {
  const options: TranslationForm['options'] = {};
  for (const option of product.options) {
    const saved = stored?.options?.[option.name];
    options[option.name] = {
      name: saved?.name ?? '',
      values: Object.fromEntries(option.values.map((v) => [v, saved?.values?.[v] ?? ''])),
    };
  }
  return {
    name: stored?.name ?? '',
    description: stored?.description ?? '',
    seoTitle: stored?.seo?.title ?? '',
    seoDescription: stored?.seo?.description ?? '',
    seoSlug: stored?.seo?.slug ?? '',
    options,
    attributes: Object.fromEntries(textAttributes(product, defs).map(({ def }) => [def.code, typeof stored?.attributes?.[def.code] === 'string' ? (stored.attributes[def.code] as string) : ''])),
  };
}

const orNull = (text: string) => (text.trim() === '' ? null : text);

/** The whole translation to write (a PUT of the locale: it clears every outdated mark); attribute values not on the form kept as they are. */
function inputOf(form: TranslationForm, stored: StoredTranslation | undefined) {
  const options: Record<string, { name: string | null; values: Record<string, string> }> = {};
  for (const [option, entry] of Object.entries(form.options)) {
    const values = Object.fromEntries(Object.entries(entry.values).filter(([, v]) => v.trim() !== ''));
    if (entry.name.trim() || Object.keys(values).length) options[option] = { name: orNull(entry.name), values };
  }
  const seo = { title: orNull(form.seoTitle), description: orNull(form.seoDescription), slug: orNull(form.seoSlug) };
  return {
    name: orNull(form.name),
    description: orNull(form.description),
    seo: seo.title || seo.description || seo.slug ? seo : null,
    options: Object.keys(options).length ? options : null,
    attributes: attributesOf(form, stored),
  };
}

function attributesOf(form: TranslationForm, stored: StoredTranslation | undefined) {
  const attributes: Record<string, unknown> = { ...(stored?.attributes ?? {}) };
  for (const [code, text] of Object.entries(form.attributes)) {
    if (text.trim() === '') delete attributes[code];
    else attributes[code] = text;
  }
  return Object.keys(attributes).length ? attributes : null;
}

const translationsOf = (product: ProductTranslationFieldsFragment) => (product.translations ?? {}) as Record<string, StoredTranslation>;

export function ProductTranslationPage({ productId }: { productId: string }) {
  const { storeId, mode } = useWorkspace();
  const { search } = useLocation();
  const [state, setState] = useState<{ product?: ProductTranslationFieldsFragment; locales?: StoreLocaleFieldsFragment[]; attributes?: AttributeDef[]; error?: ApiError }>({});
  // A refused save's toast, closed when a later save goes through (the form starts afresh after each save).
  const failure = useRef<number | null>(null);

  const load = useCallback(async () => {
    try {
      const [data, attributes] = await Promise.all([query(ProductTranslationDocument, { storeId, mode, id: productId }), loadAttributes(storeId)]);
      setState({ product: data.product, locales: data.storeLocales, attributes });
    } catch (caught) {
      setState({ error: toApiError(caught) });
    }
  }, [storeId, mode, productId]);
  useEffect(() => {
    void load();
  }, [load]);

  if (state.error) {
    return (
      <>
        <PageTitle>{state.error.code === 'not_found' ? 'Product not found' : 'Translate'}</PageTitle>
        <ErrorMessage error={state.error} title="The product could not be loaded." />
        <Link to="translations">Back to the translations</Link>
      </>
    );
  }
  if (!state.product || !state.locales || !state.attributes) {
    return (
      <>
        <PageTitle>Translate</PageTitle>
        <Loading label="Loading the product…" />
      </>
    );
  }
  const further = state.locales.filter((l) => !l.default);
  const source = state.locales.find((l) => l.default)!;
  const locale = further.find((l) => l.locale === search.get('locale'))?.locale ?? further[0]?.locale;
  return (
    <>
      <PageTitle>Translate “{state.product.name}”</PageTitle>
      <TranslationCrumbs back={`products/${productId}`} backLabel="← Back to the product" locale={locale} />
      {!locale ? (
        <EmptyState title="Your shop has only one language.">
          <p>
            Add a language in <Link to="languages">Languages and currencies</Link> to translate this product into it.
          </p>
        </EmptyState>
      ) : (
        <>
          <LocaleTabs locales={further} current={locale} to={(l) => `products/${productId}/translate?locale=${encodeURIComponent(l)}`} />
          <ProductTranslationForm key={`${locale}:${state.product.version}`} product={state.product} attributes={state.attributes} source={source} locale={locale} failure={failure} onSaved={(p) => setState((s) => ({ ...s, product: p }))} />
        </>
      )}
    </>
  );
}

/** The way back to the resource, and to what is left to translate in the language. */
export function TranslationCrumbs({ back, backLabel, locale }: { back: string; backLabel: string; locale: string | undefined }) {
  return (
    <p className="breadcrumb">
      <Link to={back}>{backLabel}</Link>
      {locale ? (
        <>
          {' · '}
          <Link to={`translations?locale=${encodeURIComponent(locale)}`}>All translations into {languageName(locale)}</Link>
        </>
      ) : null}
    </p>
  );
}

/** The store's further languages as links, the current one marked. */
export function LocaleTabs({ locales, current, to }: { locales: StoreLocaleFieldsFragment[]; current: string; to: (locale: string) => string }) {
  return (
    <nav aria-label="Languages" className="locale-tabs">
      <ul>
        {locales.map((l) => (
          <li key={l.locale}>
            <Link to={to(l.locale)} aria-current={l.locale === current ? 'page' : undefined} onClick={(e) => { e.preventDefault(); navigate(to(l.locale), { replace: true }); }}>
              {languageName(l.locale, l.name)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function ProductTranslationForm({
  product,
  attributes,
  source,
  locale,
  failure,
  onSaved,
}: {
  product: ProductTranslationFieldsFragment;
  attributes: AttributeDef[];
  source: StoreLocaleFieldsFragment;
  locale: string;
  failure: MutableRefObject<number | null>;
  onSaved: (product: ProductTranslationFieldsFragment) => void;
}) {
  const { storeId, mode } = useWorkspace();
  const toast = useToast();
  const stored = translationsOf(product)[locale];
  const [initial] = useState(() => formOf(product, stored, attributes));
  const texts = textAttributes(product, attributes);
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<ApiError | null>(null);
  const [saving, setSaving] = useState(false);
  const dirty = JSON.stringify(form) !== JSON.stringify(initial);
  useLeaveGuard(dirty && !saving);

  const outdated = new Set(stored?.outdated_fields ?? []);
  const sourceName = languageName(source.locale, source.name);
  const targetName = languageName(locale);

  /** A field's mark: outdated until edited; missing while empty and the original has text. */
  const mark = (path: string, sourceText: string | null | undefined, value: string, initialValue: string) => {
    if (!sourceText) return null;
    if (value.trim() === '') return 'missing' as const;
    if (outdated.has(path) && value === initialValue) return 'outdated' as const;
    return null;
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setErrors({});
    setGeneral(null);
    try {
      const saved = (await mutate(SetProductTranslationDocument, { storeId, mode, productId: product.id, locale, translation: inputOf(form, stored) })).setProductTranslation;
      if (failure.current !== null) toast.dismiss(failure.current);
      failure.current = null;
      toast.show({ message: `Saved the ${targetName} translation.` });
      onSaved(saved);
    } catch (caught) {
      const apiError = toApiError(caught);
      const fields = Object.fromEntries(Object.entries(apiError.fields).map(([f, m]) => [f.replace(/^translation\./, ''), m]));
      if (apiError.code === 'slug_taken' && !fields['seo.slug']) fields['seo.slug'] = 'is already used by another product in this language';
      setErrors(fields);
      const count = Object.keys(fields).length;
      if (!count) setGeneral(apiError);
      if (failure.current !== null) toast.dismiss(failure.current);
      failure.current = toast.show({ tone: 'error', message: count ? `The translation was not saved: ${count === 1 ? 'one field needs' : `${count} fields need`} correcting.` : 'The translation was not saved.', details: count ? undefined : apiError.message });
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    try {
      const saved = (await mutate(RemoveProductTranslationDocument, { storeId, mode, productId: product.id, locale })).removeProductTranslation;
      toast.show({ message: `Removed the ${targetName} translation.` });
      onSaved(saved);
    } catch (caught) {
      toast.show({ tone: 'error', message: 'The translation was not removed.', details: toApiError(caught).message });
    }
  };

  const set = (key: Exclude<keyof TranslationForm, 'options' | 'attributes'>) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  const setOption = (option: string, value: string, valueKey?: string) =>
    setForm((f) => {
      const entry = f.options[option]!;
      return { ...f, options: { ...f.options, [option]: valueKey === undefined ? { ...entry, name: value } : { ...entry, values: { ...entry.values, [valueKey]: value } } } };
    });

  const row = (path: string, label: string, sourceText: string | null | undefined, value: string, initialValue: string, onChange: (v: string) => void, multiline = false) => (
    <TranslationRow
      key={path}
      label={label}
      sourceName={sourceName}
      targetName={targetName}
      sourceText={sourceText}
      value={value}
      onChange={onChange}
      multiline={multiline}
      mark={mark(path, sourceText, value, initialValue)}
      error={errors[path]}
    />
  );

  const summary = Object.entries(errors);
  return (
    <form className="translation-form" onSubmit={save} noValidate aria-label={`${targetName} translation`}>
      <ErrorSummary what="The translation" items={summary.map(([field, message]) => ({ field, label: texts.find((t) => `attributes.${t.def.code}` === field)?.def.name ?? translationFieldLabel(field), message }))} />
      <ErrorMessage error={general} title="The translation was not saved." />
      <TranslationIntro updatedAt={stored?.updated_at} sourceName={sourceName} targetName={targetName} />
      <section className="panel" aria-labelledby="tr-details">
        <h2 id="tr-details">Details</h2>
        {row('name', 'Name', product.name, form.name, initial.name, set('name'))}
        {row('description', 'Description', product.description, form.description, initial.description, set('description'), true)}
      </section>
      {product.options.length ? (
        <section className="panel" aria-labelledby="tr-options">
          <h2 id="tr-options">Options</h2>
          {product.options.map((option) => {
            const path = `options.${option.name}`;
            const entry = form.options[option.name]!;
            const start = initial.options[option.name]!;
            const edited = JSON.stringify(entry) !== JSON.stringify(start);
            const optionMark = outdated.has(path) && !edited ? ('outdated' as const) : null;
            return (
              <fieldset key={option.name} className="tr-option">
                <legend>
                  Option “{option.name}” {optionMark ? <Mark kind="outdated" /> : null}
                </legend>
                {row(`${path}.name`, `Option “${option.name}”`, option.name, entry.name, start.name, (v) => setOption(option.name, v))}
                {option.values.map((value) => row(`${path}.values.${value}`, `Value “${value}” of “${option.name}”`, value, entry.values[value] ?? '', start.values[value] ?? '', (v) => setOption(option.name, v, value)))}
              </fieldset>
            );
          })}
        </section>
      ) : null}
      {texts.length ? (
        <section className="panel" aria-labelledby="tr-attributes">
          <h2 id="tr-attributes">Attributes</h2>
          {texts.map(({ def, text }) =>
            row(
              `attributes.${def.code}`,
              def.name,
              def.type === 'rich_text' ? plainText(text) : text,
              form.attributes[def.code] ?? '',
              initial.attributes[def.code] ?? '',
              (v) => setForm((f) => ({ ...f, attributes: { ...f.attributes, [def.code]: v } })),
              def.type === 'rich_text',
            ),
          )}
        </section>
      ) : null}
      <section className="panel" aria-labelledby="tr-seo">
        <h2 id="tr-seo">Search engine listing</h2>
        {row('seo.title', 'Page title', product.seo?.title, form.seoTitle, initial.seoTitle, set('seoTitle'))}
        {row('seo.description', 'Meta description', product.seo?.description, form.seoDescription, initial.seoDescription, set('seoDescription'), true)}
        {row('seo.slug', 'URL slug', product.seo?.slug, form.seoSlug, initial.seoSlug, set('seoSlug'))}
      </section>
      <div className="save-bar">
        {dirty ? <span className="save-bar-note">Unsaved changes</span> : null}
        <button type="submit" className="button-primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save translation'}
        </button>
        {stored ? (
          <ConfirmButton confirmLabel="Remove" question={`Remove the whole ${targetName} translation?`} onConfirm={remove} className="button-danger">
            Remove translation
          </ConfirmButton>
        ) : null}
      </div>
    </form>
  );
}

export function Mark({ kind }: { kind: 'missing' | 'outdated' }) {
  return kind === 'missing' ? <Badge tone="grey">Missing</Badge> : <Badge tone="amber">Outdated</Badge>;
}

/** One field side by side: the original (read-only) and its translation, with its mark and error. */
/** Above a side-by-side translation: when it was last written, and where the original text is. */
export function TranslationIntro({ updatedAt, sourceName, targetName }: { updatedAt: string | undefined; sourceName: string; targetName: string }) {
  return (
    <p className="muted small">
      {updatedAt ? `Last translated ${formatDateTime(updatedAt)}.` : `Not translated into ${targetName} yet.`} The original text in {sourceName} is on the
      left; empty fields show the {sourceName} text in the shop.
    </p>
  );
}

export function TranslationRow({
  label,
  sourceName,
  targetName,
  sourceText,
  value,
  onChange,
  multiline,
  mark,
  error,
}: {
  label: string;
  sourceName: string;
  targetName: string;
  sourceText: string | null | undefined;
  value: string;
  onChange: (value: string) => void;
  multiline?: boolean;
  mark: 'missing' | 'outdated' | null;
  error?: string;
}) {
  const id = useId();
  const describedBy = [`${id}-source`, mark ? `${id}-mark` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const input: ReactNode = multiline ? (
    <textarea id={id} rows={4} value={value} onChange={(e) => onChange(e.target.value)} aria-describedby={describedBy} aria-invalid={error ? true : undefined} />
  ) : (
    <input id={id} value={value} onChange={(e) => onChange(e.target.value)} aria-describedby={describedBy} aria-invalid={error ? true : undefined} />
  );
  return (
    <div className={`tr-row${error ? ' field-invalid' : ''}`}>
      <div className="tr-source">
        <p className="tr-label" aria-hidden="true">
          {label} · {sourceName}
        </p>
        <div className="tr-source-text" id={`${id}-source`}>
          <span className="visually-hidden">{sourceName} original: </span>
          {sourceText ? sourceText : <span className="muted">(empty)</span>}
        </div>
      </div>
      <div className="tr-target field">
        <label htmlFor={id}>
          {label} in {targetName}
        </label>
        {input}
        {mark ? (
          <p className="tr-mark" id={`${id}-mark`}>
            <Mark kind={mark} />
            <span className="visually-hidden">{mark === 'missing' ? ': not translated yet' : ': the original changed since this was translated'}</span>
          </p>
        ) : null}
        {error ? (
          <p className="field-error" id={`${id}-error`}>
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}
