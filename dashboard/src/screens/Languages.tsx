import { type FormEvent, type ReactNode, useCallback, useEffect, useId, useState } from 'react';
import { mutate, query, toApiError, type ApiError } from '../api/client';
import { Badge, ConfirmButton, ErrorMessage, Field, Loading, PageTitle } from '../components/ui';
import { useToast } from '../components/toasts';
import {
  AddStoreCurrencyDocument,
  AddStoreLocaleDocument,
  RemoveStoreCurrencyDocument,
  RemoveStoreLocaleDocument,
  SetDefaultStoreLocaleDocument,
  StoreLanguagesDocument,
  type StoreCurrencyFieldsFragment,
  type StoreLocaleFieldsFragment,
} from '../generated/graphql';
import { canonicalLocale, countIn, currencyName, knownCurrency, languageName, plural } from '../lib/languages';
import { Link } from '../lib/router';
import { useWorkspace } from '../session';
import './translations/translations.css';

/** The store's languages and currencies: shared by the test and live catalogs. */
export function LanguagesPage() {
  const { storeId } = useWorkspace();
  const [state, setState] = useState<{ locales?: StoreLocaleFieldsFragment[]; currencies?: StoreCurrencyFieldsFragment[]; error?: ApiError }>({});

  const load = useCallback(async () => {
    try {
      const data = await query(StoreLanguagesDocument, { storeId });
      setState({ locales: data.storeLocales, currencies: data.storeCurrencies });
    } catch (caught) {
      setState({ error: toApiError(caught) });
    }
  }, [storeId]);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <>
      <PageTitle>Languages and currencies</PageTitle>
      <p className="muted">
        The languages your shop is translated into and the currencies it has prices in. They belong to the store: the test and live catalogs share
        them.
      </p>
      {state.error ? (
        <ErrorMessage error={state.error} title="The languages and currencies could not be loaded.">
          <button type="button" onClick={() => void load()}>
            Try again
          </button>
        </ErrorMessage>
      ) : !state.locales || !state.currencies ? (
        <Loading label="Loading the languages and currencies…" />
      ) : (
        <>
          <LocalesSection locales={state.locales} reload={load} />
          <CurrenciesSection currencies={state.currencies} reload={load} />
        </>
      )}
    </>
  );
}

/** Removing an item the service may refuse because data uses it (translations, prices): then the explicit choice. */
function useRemoval(reload: () => Promise<void>, refusal: string, countNoun: string, dataWords: string) {
  const toast = useToast();
  const [blocked, setBlocked] = useState<{ code: string; count: number } | null>(null);
  const remove = async (code: string, name: string, withData: boolean, run: () => Promise<unknown>) => {
    try {
      await run();
      setBlocked(null);
      toast.show({ message: withData ? `Removed ${name} and its ${dataWords}.` : `Removed ${name}.` });
      await reload();
    } catch (caught) {
      const apiError = toApiError(caught);
      if (apiError.code === refusal) setBlocked({ code, count: countIn(apiError.message, countNoun) ?? 0 });
      else toast.show({ tone: 'error', message: `${name} was not removed.`, details: apiError.message });
    }
  };
  return { blocked, cancel: () => setBlocked(null), remove };
}

/** A refused add's words at its field, or a toast for anything else. */
function addRefusal(apiError: ApiError, words: Record<string, string>, field: string): string | null {
  if (words[apiError.code]) return words[apiError.code]!;
  if (apiError.code === 'limit_exceeded') return words.limit ?? apiError.message;
  if (apiError.fields[field]) return words.invalid ?? apiError.fields[field]!;
  return null;
}

function LocalesSection({ locales, reload }: { locales: StoreLocaleFieldsFragment[]; reload: () => Promise<void> }) {
  const { storeId } = useWorkspace();
  const toast = useToast();
  const { blocked, cancel, remove } = useRemoval(reload, 'locale_has_translations', 'translation', 'translations');

  const add = async (tag: string) => {
    const canonical = canonicalLocale(tag);
    if (!canonical) return tag.trim() ? 'This is not a language tag: use a language code, optionally with a region, e.g. de, de-AT or pt-BR.' : 'Enter a language tag, e.g. de or de-AT.';
    try {
      const added = (await mutate(AddStoreLocaleDocument, { storeId, locale: canonical })).addStoreLocale;
      toast.show({ message: `Added ${languageName(added.locale, added.name)}.` });
      await reload();
      return undefined;
    } catch (caught) {
      const apiError = toApiError(caught);
      const words = addRefusal(apiError, {
        locale_taken: `The store already has ${languageName(canonical)}.`,
        limit: 'The store has as many languages as it can have: remove one first.',
        invalid: 'This is not a language tag the shop can use: use a language code, optionally with a region, e.g. de or de-AT.',
      }, 'locale');
      if (words) return words;
      toast.show({ tone: 'error', message: 'The language was not added.', details: apiError.message });
      return undefined;
    }
  };

  const makeDefault = async (locale: StoreLocaleFieldsFragment) => {
    const name = languageName(locale.locale, locale.name);
    try {
      await mutate(SetDefaultStoreLocaleDocument, { storeId, locale: locale.locale });
      toast.show({ message: `${name} is now the default language.` });
      await reload();
    } catch (caught) {
      const apiError = toApiError(caught);
      const count = countIn(apiError.message, 'translation');
      toast.show({
        tone: 'error',
        message: `${name} did not become the default language.`,
        details:
          apiError.code === 'locale_has_translations'
            ? `${count !== null ? plural(count, 'translation is', 'translations are') : 'Translations are'} written in ${name}. The products' own texts are in the default language, so those translations would have nowhere to go: remove ${name} with its translations first, or remove them one by one.`
            : apiError.message,
      });
    }
  };

  return (
    <section className="panel" aria-labelledby="languages-title">
      <h2 id="languages-title">Languages</h2>
      <p className="muted small">
        Products are written in the default language; the other languages hold their translations (see <Link to="translations">Translations</Link>).
      </p>
      <ul className="locale-list">
        {locales.map((locale) => {
          const name = languageName(locale.locale, locale.name);
          const removeIt = (withData: boolean) => remove(locale.locale, name, withData, () => mutate(RemoveStoreLocaleDocument, { storeId, locale: locale.locale, deleteTranslations: withData }));
          const translations = blocked?.count ? plural(blocked.count, 'translation', 'translations') : 'translations';
          return (
            <ListedItem
              key={locale.locale}
              name={name}
              code={locale.locale}
              isDefault={locale.default}
              extraAction={
                <button type="button" className="button-secondary button-small" onClick={() => void makeDefault(locale)}>
                  Make default<span className="visually-hidden"> {name}</span>
                </button>
              }
              onRemove={() => removeIt(false)}
              blocked={
                blocked?.code === locale.locale ? (
                  <RemoveWithData
                    key={`${locale.locale}-${blocked.count}`}
                    question={`${name} still has ${translations}.`}
                    explanation="A language with translations is removed only together with them. Its translations are then deleted for good, in the test and the live catalog."
                    choice={`Also delete the ${translations} in ${name}`}
                    action={`Remove ${name} and its translations`}
                    onConfirm={() => removeIt(true)}
                    onCancel={cancel}
                  />
                ) : null
              }
            />
          );
        })}
      </ul>
      <AddForm
        title="Add a language"
        label="Language tag"
        describe={(tag) => {
          const canonical = canonicalLocale(tag);
          const preview = canonical ? languageName(canonical) : null;
          return preview
            ? { hint: `${preview} (${canonical})`, submit: `Add ${preview}` }
            : { hint: 'A language code, optionally with a region: de, de-AT, pt-BR, zh-Hant.', submit: 'Add language' };
        }}
        onAdd={add}
      />
    </section>
  );
}

function CurrenciesSection({ currencies, reload }: { currencies: StoreCurrencyFieldsFragment[]; reload: () => Promise<void> }) {
  const { storeId } = useWorkspace();
  const toast = useToast();
  const { blocked, cancel, remove } = useRemoval(reload, 'currency_in_use', 'product', 'prices');

  const add = async (code: string) => {
    const upper = code.trim().toUpperCase();
    if (!/^[A-Z]{3}$/.test(upper)) return upper ? 'A currency code has three letters, e.g. USD, JPY or CHF.' : 'Enter a currency code, e.g. USD.';
    try {
      const added = (await mutate(AddStoreCurrencyDocument, { storeId, currency: upper })).addStoreCurrency;
      toast.show({ message: `Added ${currencyName(added.currency, added.name)} (${added.currency}). Products have no price in it until you set one.` });
      await reload();
      return undefined;
    } catch (caught) {
      const apiError = toApiError(caught);
      const words = addRefusal(apiError, {
        currency_taken: `The store already has ${currencyName(upper)}.`,
        limit: 'The store has as many currencies as it can have: remove one first.',
        invalid: `${upper} is not a currency in circulation: use its three-letter code, e.g. USD.`,
      }, 'currency');
      if (words) return words;
      toast.show({ tone: 'error', message: 'The currency was not added.', details: apiError.message });
      return undefined;
    }
  };

  return (
    <section className="panel" aria-labelledby="currencies-title">
      <h2 id="currencies-title">Currencies</h2>
      <p className="muted small">
        Every product has its price in the default currency. In the others, a product has a price only where you set one in its editor: nothing is
        converted.
      </p>
      <ul className="locale-list">
        {currencies.map((currency) => {
          const name = currencyName(currency.currency, currency.name);
          const removeIt = (withData: boolean) =>
            remove(currency.currency, `${name} (${currency.currency})`, withData, () => mutate(RemoveStoreCurrencyDocument, { storeId, currency: currency.currency, deletePrices: withData }));
          return (
            <ListedItem
              key={currency.currency}
              name={name}
              code={currency.currency}
              details={currency.minorUnits === 0 ? 'no decimals' : plural(currency.minorUnits, 'decimal', 'decimals')}
              isDefault={currency.default}
              onRemove={() => removeIt(false)}
              blocked={
                blocked?.code === currency.currency ? (
                  <RemoveWithData
                    key={`${currency.currency}-${blocked.count}`}
                    question={`${blocked.count ? plural(blocked.count, 'product has', 'products have') : 'Products have'} prices in ${name}.`}
                    explanation="A currency that products have prices in is removed only together with those prices. They are then deleted for good, in the test and the live catalog."
                    choice={`Also delete the prices in ${currency.currency}`}
                    action={`Remove ${currency.currency} and its prices`}
                    onConfirm={() => removeIt(true)}
                    onCancel={cancel}
                  />
                ) : null
              }
            />
          );
        })}
      </ul>
      <AddForm
        title="Add a currency"
        label="Currency code"
        maxLength={3}
        describe={(code) => {
          const upper = code.trim().toUpperCase();
          const preview = knownCurrency(upper) ? currencyName(upper) : null;
          return preview ? { hint: `${preview} (${upper})`, submit: `Add ${preview}` } : { hint: 'Three letters, e.g. USD, JPY, CHF.', submit: 'Add currency' };
        }}
        onAdd={add}
      />
    </section>
  );
}

/** One language or currency: its name, code and default mark, and (not the default) its actions. */
function ListedItem({
  name,
  code,
  details,
  isDefault,
  extraAction,
  onRemove,
  blocked,
}: {
  name: string;
  code: string;
  details?: string;
  isDefault: boolean;
  extraAction?: ReactNode;
  onRemove: () => Promise<void>;
  blocked: ReactNode;
}) {
  return (
    <li className="locale-item">
      <span className="locale-name">
        <strong>{name}</strong> <code className="muted">{code}</code> {details ? <span className="muted small">{details}</span> : null}{' '}
        {isDefault ? <Badge tone="blue">Default</Badge> : null}
      </span>
      {isDefault ? null : (
        <span className="row-actions">
          {extraAction}
          <ConfirmButton confirmLabel="Remove" question={`Remove ${name}?`} onConfirm={onRemove} className="button-danger button-small">
            Remove<span className="visually-hidden"> {name}</span>
          </ConfirmButton>
        </span>
      )}
      {blocked}
    </li>
  );
}

/** Adds a language or currency by its code, named as it is typed; onAdd answers the error to show at the field, if any. */
function AddForm({
  title,
  label,
  maxLength,
  describe,
  onAdd,
}: {
  title: string;
  label: string;
  maxLength?: number;
  describe: (value: string) => { hint: string; submit: string };
  onAdd: (value: string) => Promise<string | undefined>;
}) {
  const titleId = useId();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const { hint, submit } = describe(value);
  const add = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const refused = await onAdd(value);
      setError(refused);
      if (!refused) setValue('');
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="inline-form add-form" onSubmit={add} noValidate aria-labelledby={titleId}>
      <h3 id={titleId}>{title}</h3>
      <Field label={label} hint={hint} error={error}>
        {(p) => (
          <input
            {...p}
            value={value}
            maxLength={maxLength}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => {
              setValue(e.target.value);
              setError(undefined);
            }}
          />
        )}
      </Field>
      <button type="submit" disabled={busy}>
        {submit}
      </button>
    </form>
  );
}

/** A removal the service refused because data uses the item: the explicit choice to delete that data too. */
function RemoveWithData({
  question,
  explanation,
  choice,
  action,
  onConfirm,
  onCancel,
}: {
  question: string;
  explanation: string;
  choice: string;
  action: string;
  onConfirm: () => Promise<void>;
  onCancel: () => void;
}) {
  const id = useId();
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <div className="alert alert-warning remove-with-data" role="alert">
      <p className="alert-title">{question}</p>
      <p>{explanation}</p>
      <div className="field field-check">
        <input id={id} type="checkbox" checked={checked} onChange={(e) => setChecked(e.target.checked)} />
        <label htmlFor={id}>{choice}</label>
      </div>
      <div className="button-row">
        <button
          type="button"
          className="button-danger"
          disabled={!checked || busy}
          onClick={async () => {
            setBusy(true);
            try {
              await onConfirm();
            } finally {
              setBusy(false);
            }
          }}
        >
          {action}
        </button>
        <button type="button" className="button-secondary" onClick={onCancel}>
          Keep it
        </button>
      </div>
    </div>
  );
}
