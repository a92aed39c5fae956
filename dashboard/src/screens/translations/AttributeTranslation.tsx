import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { mutate, query, toApiError, type ApiError } from '../../api/client';
import { ConfirmButton, EmptyState, ErrorMessage, ErrorSummary, Loading, PageTitle } from '../../components/ui';
import { useToast } from '../../components/toasts';
import {
  AttributeTranslationDocument,
  RemoveAttributeTranslationDocument,
  SetAttributeTranslationDocument,
  type AttributeTranslationFieldsFragment,
  type StoreLocaleFieldsFragment,
} from '../../generated/graphql';
import { languageName } from '../../lib/languages';
import { Link, useLeaveGuard, useLocation } from '../../lib/router';
import { useWorkspace } from '../../session';
import { translationFieldLabel } from './fieldWords';
import { LocaleTabs, TranslationCrumbs, TranslationIntro, TranslationRow } from './ProductTranslation';
import './translations.css';

type Attribute = AttributeTranslationFieldsFragment;
interface StoredTranslation {
  name?: string | null;
  values?: Record<string, string | null> | null;
  outdated_fields?: string[];
  updated_at?: string;
}
/** The editable text: '' is no translation; value labels by value code. */
interface Form {
  name: string;
  values: Record<string, string>;
}

const orNull = (text: string) => (text.trim() === '' ? null : text);

function formOf(attribute: Attribute, stored: StoredTranslation | undefined): Form {
  return { name: stored?.name ?? '', values: Object.fromEntries(attribute.values.map((v) => [v.value, stored?.values?.[v.value] ?? ''])) };
}

/** An attribute's name and its values' labels side by side with their translation in one of the store's further languages. */
export function AttributeTranslationPage({ attributeId }: { attributeId: string }) {
  const { storeId } = useWorkspace();
  const { search } = useLocation();
  const [state, setState] = useState<{ attribute?: Attribute; locales?: StoreLocaleFieldsFragment[]; error?: ApiError }>({});

  const load = useCallback(async () => {
    try {
      const data = await query(AttributeTranslationDocument, { storeId, attribute: attributeId });
      setState({ attribute: data.attribute, locales: data.storeLocales });
    } catch (caught) {
      setState({ error: toApiError(caught) });
    }
  }, [storeId, attributeId]);
  useEffect(() => {
    void load();
  }, [load]);

  if (state.error) {
    return (
      <>
        <PageTitle>{state.error.code === 'not_found' ? 'Attribute not found' : 'Translate'}</PageTitle>
        {state.error.code === 'not_found' ? (
          <p>
            This store has no such attribute. <Link to="attributes">Back to the attributes</Link>.
          </p>
        ) : (
          <ErrorMessage error={state.error} title="The attribute could not be loaded." />
        )}
      </>
    );
  }
  if (!state.attribute || !state.locales) {
    return (
      <>
        <PageTitle>Translate</PageTitle>
        <Loading label="Loading the attribute…" />
      </>
    );
  }
  const { attribute } = state;
  const further = state.locales.filter((l) => !l.default);
  const source = state.locales.find((l) => l.default)!;
  const locale = further.find((l) => l.locale === search.get('locale'))?.locale ?? further[0]?.locale;
  return (
    <>
      <PageTitle>Translate “{attribute.name}”</PageTitle>
      <TranslationCrumbs back={`attributes/${attribute.id}`} backLabel="← Back to the attribute" locale={locale} />
      {!locale ? (
        <EmptyState title="Your shop has only one language.">
          <p>
            Add a language in <Link to="languages">Languages and currencies</Link> to translate this attribute into it.
          </p>
        </EmptyState>
      ) : (
        <>
          <LocaleTabs locales={further} current={locale} to={(l) => `attributes/${attribute.id}/translate?locale=${encodeURIComponent(l)}`} />
          <AttributeTranslationForm
            key={`${locale}:${attribute.version}`}
            attribute={attribute}
            sourceName={languageName(source.locale, source.name)}
            locale={locale}
            onSaved={(saved) => setState((s) => ({ ...s, attribute: saved }))}
          />
        </>
      )}
    </>
  );
}

function AttributeTranslationForm({ attribute, sourceName, locale, onSaved }: { attribute: Attribute; sourceName: string; locale: string; onSaved: (attribute: Attribute) => void }) {
  const { storeId } = useWorkspace();
  const toast = useToast();
  const stored = (attribute.translations as Record<string, StoredTranslation>)[locale];
  const [initial] = useState(() => formOf(attribute, stored));
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<ApiError | null>(null);
  const [saving, setSaving] = useState(false);
  const dirty = JSON.stringify(form) !== JSON.stringify(initial);
  useLeaveGuard(dirty && !saving);
  const targetName = languageName(locale);
  const outdated = new Set(stored?.outdated_fields ?? []);
  const mark = (path: string, value: string, initialValue: string) =>
    value.trim() === '' ? ('missing' as const) : outdated.has(path) && value === initialValue ? ('outdated' as const) : null;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setErrors({});
    setGeneral(null);
    const values = Object.fromEntries(Object.entries(form.values).filter(([, v]) => v.trim() !== ''));
    try {
      const saved = (
        await mutate(SetAttributeTranslationDocument, {
          storeId,
          attribute: attribute.id,
          locale,
          translation: { name: orNull(form.name), values: Object.keys(values).length ? values : null },
        })
      ).setAttributeTranslation;
      toast.show({ message: `Saved the ${targetName} translation.` });
      onSaved(saved);
    } catch (caught) {
      const apiError = toApiError(caught);
      const fields = Object.fromEntries(Object.entries(apiError.fields).map(([f, m]) => [f.replace(/^translation\./, ''), m]));
      setErrors(fields);
      const count = Object.keys(fields).length;
      if (!count) setGeneral(apiError);
      toast.show({
        tone: 'error',
        message: count ? `The translation was not saved: ${count === 1 ? 'one field needs' : `${count} fields need`} correcting.` : 'The translation was not saved.',
        details: count ? undefined : apiError.message,
      });
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    try {
      const saved = (await mutate(RemoveAttributeTranslationDocument, { storeId, attribute: attribute.id, locale })).removeAttributeTranslation;
      toast.show({ message: `Removed the ${targetName} translation.` });
      onSaved(saved);
    } catch (caught) {
      toast.show({ tone: 'error', message: 'The translation was not removed.', details: toApiError(caught).message });
    }
  };

  const labelOf = (field: string) => {
    const value = field.startsWith('values.') ? attribute.values.find((v) => v.value === field.slice('values.'.length)) : undefined;
    return value ? `Value “${value.name}”` : translationFieldLabel(field);
  };
  const summary = Object.entries(errors);
  return (
    <form className="translation-form" onSubmit={save} noValidate aria-label={`${targetName} translation`}>
      <ErrorSummary what="The translation" items={summary.map(([field, message]) => ({ field, label: labelOf(field), message }))} />
      <ErrorMessage error={general} title="The translation was not saved." />
      <TranslationIntro updatedAt={stored?.updated_at} sourceName={sourceName} targetName={targetName} />
      <section className="panel" aria-labelledby="tr-attribute">
        <h2 id="tr-attribute">Attribute</h2>
        <TranslationRow
          label="Name"
          sourceName={sourceName}
          targetName={targetName}
          sourceText={attribute.name}
          value={form.name}
          onChange={(name) => setForm((f) => ({ ...f, name }))}
          mark={mark('name', form.name, initial.name)}
          error={errors.name}
        />
      </section>
      {attribute.values.length ? (
        <section className="panel" aria-labelledby="tr-values">
          <h2 id="tr-values">Values</h2>
          {attribute.values.map((v) => {
            const path = `values.${v.value}`;
            const value = form.values[v.value] ?? '';
            return (
              <TranslationRow
                key={v.value}
                label={`Value “${v.name}”`}
                sourceName={sourceName}
                targetName={targetName}
                sourceText={v.name}
                value={value}
                onChange={(text) => setForm((f) => ({ ...f, values: { ...f.values, [v.value]: text } }))}
                mark={mark(path, value, initial.values[v.value] ?? '')}
                error={errors[path]}
              />
            );
          })}
        </section>
      ) : null}
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
