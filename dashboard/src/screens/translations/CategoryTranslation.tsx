import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { mutate, query, toApiError, type ApiError } from '../../api/client';
import { ConfirmButton, EmptyState, ErrorMessage, Loading, PageTitle } from '../../components/ui';
import { useToast } from '../../components/toasts';
import { CategoryTranslationsDocument, RemoveCategoryTranslationDocument, SetCategoryTranslationDocument, type CategoryTranslationsQuery } from '../../generated/graphql';
import { languageName } from '../../lib/languages';
import { Link, useLeaveGuard, useLocation } from '../../lib/router';
import { useWorkspace } from '../../session';
import { LocaleTabs, TranslationCrumbs, TranslationRow } from './ProductTranslation';
import './translations.css';

type StoreWithCategories = NonNullable<CategoryTranslationsQuery['dashboardSession']>['user']['memberships'][number]['store'];
type Category = StoreWithCategories['categories'][number];
type Stored = Record<string, { name?: string | null; outdated_fields?: string[] }>;

/** A category's name side by side with its translation in one of the store's further languages. */
export function CategoryTranslationPage({ categoryId }: { categoryId: string }) {
  const { storeId, reloadSession } = useWorkspace();
  const { search } = useLocation();
  const [state, setState] = useState<{ store?: StoreWithCategories; error?: ApiError }>({});

  const load = useCallback(async () => {
    try {
      const data = await query(CategoryTranslationsDocument, {});
      const store = data.dashboardSession?.user.memberships.find((m) => m.store.id === storeId)?.store;
      setState(store ? { store } : { error: { code: 'not_found', message: 'The store could not be found.', fields: {} } });
    } catch (caught) {
      setState({ error: toApiError(caught) });
    }
  }, [storeId]);
  useEffect(() => {
    void load();
  }, [load]);

  if (state.error) return <ErrorMessage error={state.error} title="The category could not be loaded." />;
  if (!state.store) return <Loading label="Loading the category…" />;
  const category = state.store.categories.find((c) => c.id === categoryId);
  if (!category) {
    return (
      <>
        <PageTitle>Category not found</PageTitle>
        <p>
          There is no such category in this store. <Link to="categories">Back to the categories</Link>.
        </p>
      </>
    );
  }
  const further = state.store.locales.filter((l) => !l.default);
  const source = state.store.locales.find((l) => l.default)!;
  const locale = further.find((l) => l.locale === search.get('locale'))?.locale ?? further[0]?.locale;
  return (
    <>
      <PageTitle>Translate “{category.name}”</PageTitle>
      <TranslationCrumbs back="categories" backLabel="← Categories" locale={locale} />
      {!locale ? (
        <EmptyState title="Your shop has only one language." />
      ) : (
        <>
          <LocaleTabs locales={further} current={locale} to={(l) => `categories/${categoryId}/translate?locale=${encodeURIComponent(l)}`} />
          <CategoryForm
            key={`${locale}:${JSON.stringify(category.translations)}`}
            category={category}
            sourceName={languageName(source.locale, source.name)}
            locale={locale}
            onSaved={async () => {
              await load();
              await reloadSession();
            }}
          />
        </>
      )}
    </>
  );
}

function CategoryForm({ category, sourceName, locale, onSaved }: { category: Category; sourceName: string; locale: string; onSaved: () => Promise<void> }) {
  const { storeId } = useWorkspace();
  const toast = useToast();
  const stored = (category.translations as Stored)[locale];
  const initial = stored?.name ?? '';
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  useLeaveGuard(name !== initial && !saving);
  const targetName = languageName(locale);
  const mark = name.trim() === '' ? 'missing' : stored?.outdated_fields?.includes('name') && name === initial ? 'outdated' : null;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setError(undefined);
    try {
      await mutate(SetCategoryTranslationDocument, { storeId, category: category.id, locale, translation: { name: name.trim() === '' ? null : name } });
      toast.show({ message: `Saved the ${targetName} translation.` });
      await onSaved();
    } catch (caught) {
      const apiError = toApiError(caught);
      setError(apiError.fields.name ?? apiError.fields['translation.name'] ?? apiError.message);
      toast.show({ tone: 'error', message: 'The translation was not saved: one field needs correcting.' });
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    try {
      await mutate(RemoveCategoryTranslationDocument, { storeId, category: category.id, locale });
      toast.show({ message: `Removed the ${targetName} translation.` });
      await onSaved();
    } catch (caught) {
      toast.show({ tone: 'error', message: 'The translation was not removed.', details: toApiError(caught).message });
    }
  };

  return (
    <form className="translation-form" onSubmit={save} noValidate aria-label={`${targetName} translation`}>
      <section className="panel" aria-labelledby="tr-category">
        <h2 id="tr-category">Category</h2>
        <TranslationRow label="Name" sourceName={sourceName} targetName={targetName} sourceText={category.name} value={name} onChange={setName} mark={mark} error={error} />
      </section>
      <div className="save-bar">
        {name !== initial ? <span className="save-bar-note">Unsaved changes</span> : null}
        <button type="submit" className="button-primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save translation'}
        </button>
        {stored ? (
          <ConfirmButton confirmLabel="Remove" question={`Remove the ${targetName} translation?`} onConfirm={remove} className="button-danger">
            Remove translation
          </ConfirmButton>
        ) : null}
      </div>
    </form>
  );
}
