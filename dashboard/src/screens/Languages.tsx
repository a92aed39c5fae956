import { type FormEvent, useCallback, useEffect, useId, useState } from 'react';
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

function LocalesSection({ locales, reload }: { locales: StoreLocaleFieldsFragment[]; reload: () => Promise<void> }) {
  const { storeId } = useWorkspace();
  const toast = useToast();
  const [tag, setTag] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [blocked, setBlocked] = useState<{ locale: string; count: number } | null>(null);
  const canonical = canonicalLocale(tag);
  const preview = canonical ? languageName(canonical) : null;

  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (!canonical) {
      setError(tag.trim() ? 'This is not a language tag: use a language code, optionally with a region, e.g. de, de-AT or pt-BR.' : 'Enter a language tag, e.g. de or de-AT.');
      return;
    }
    setBusy(true);
    try {
      const added = (await mutate(AddStoreLocaleDocument, { storeId, locale: canonical })).addStoreLocale;
      setTag('');
      setError(undefined);
      toast.show({ message: `Added ${languageName(added.locale, added.name)}.` });
      await reload();
    } catch (caught) {
      const apiError = toApiError(caught);
      if (apiError.code === 'locale_taken') setError(`The store already has ${languageName(canonical)}.`);
      else if (apiError.code === 'limit_exceeded') setError('The store has as many languages as it can have: remove one first.');
      else if (apiError.fields.locale) setError('This is not a language tag the shop can use: use a language code, optionally with a region, e.g. de or de-AT.');
      else toast.show({ tone: 'error', message: 'The language was not added.', details: apiError.message });
    } finally {
      setBusy(false);
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

  const remove = async (locale: StoreLocaleFieldsFragment, deleteTranslations: boolean) => {
    const name = languageName(locale.locale, locale.name);
    try {
      await mutate(RemoveStoreLocaleDocument, { storeId, locale: locale.locale, deleteTranslations });
      setBlocked(null);
      toast.show({ message: deleteTranslations ? `Removed ${name} and its translations.` : `Removed ${name}.` });
      await reload();
    } catch (caught) {
      const apiError = toApiError(caught);
      if (apiError.code === 'locale_has_translations') setBlocked({ locale: locale.locale, count: countIn(apiError.message, 'translation') ?? 0 });
      else toast.show({ tone: 'error', message: `${name} was not removed.`, details: apiError.message });
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
          return (
            <li key={locale.locale} className="locale-item">
              <span className="locale-name">
                <strong>{name}</strong> <code className="muted">{locale.locale}</code> {locale.default ? <Badge tone="blue">Default</Badge> : null}
              </span>
              {locale.default ? null : (
                <span className="row-actions">
                  <button type="button" className="button-secondary button-small" onClick={() => void makeDefault(locale)}>
                    Make default<span className="visually-hidden"> {name}</span>
                  </button>
                  <ConfirmButton confirmLabel="Remove" question={`Remove ${name}?`} onConfirm={() => remove(locale, false)} className="button-danger button-small">
                    Remove<span className="visually-hidden"> {name}</span>
                  </ConfirmButton>
                </span>
              )}
              {blocked?.locale === locale.locale ? (
                <RemoveWithData
                  key={`${locale.locale}-${blocked.count}`}
                  question={`${name} still has ${blocked.count ? plural(blocked.count, 'translation', 'translations') : 'translations'}.`}
                  explanation={`A language with translations is removed only together with them. Its translations are then deleted for good, in the test and the live catalog.`}
                  choice={`Also delete the ${blocked.count ? plural(blocked.count, 'translation', 'translations') : 'translations'} in ${name}`}
                  action={`Remove ${name} and its translations`}
                  onConfirm={() => remove(locale, true)}
                  onCancel={() => setBlocked(null)}
                />
              ) : null}
            </li>
          );
        })}
      </ul>
      <form className="inline-form add-form" onSubmit={add} noValidate aria-labelledby="add-language-title">
        <h3 id="add-language-title">Add a language</h3>
        <Field
          label="Language tag"
          hint={preview ? `${preview} (${canonical})` : 'A language code, optionally with a region: de, de-AT, pt-BR, zh-Hant.'}
          error={error}
        >
          {(p) => (
            <input
              {...p}
              value={tag}
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => {
                setTag(e.target.value);
                setError(undefined);
              }}
            />
          )}
        </Field>
        <button type="submit" disabled={busy}>
          {preview ? `Add ${preview}` : 'Add language'}
        </button>
      </form>
    </section>
  );
}

function CurrenciesSection({ currencies, reload }: { currencies: StoreCurrencyFieldsFragment[]; reload: () => Promise<void> }) {
  const { storeId } = useWorkspace();
  const toast = useToast();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [blocked, setBlocked] = useState<{ currency: string; count: number } | null>(null);
  const upper = code.trim().toUpperCase();
  const preview = knownCurrency(upper) ? currencyName(upper) : null;

  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (!/^[A-Z]{3}$/.test(upper)) {
      setError(upper ? 'A currency code has three letters, e.g. USD, JPY or CHF.' : 'Enter a currency code, e.g. USD.');
      return;
    }
    setBusy(true);
    try {
      const added = (await mutate(AddStoreCurrencyDocument, { storeId, currency: upper })).addStoreCurrency;
      setCode('');
      setError(undefined);
      toast.show({ message: `Added ${currencyName(added.currency, added.name)} (${added.currency}). Products have no price in it until you set one.` });
      await reload();
    } catch (caught) {
      const apiError = toApiError(caught);
      if (apiError.code === 'currency_taken') setError(`The store already has ${currencyName(upper)}.`);
      else if (apiError.code === 'limit_exceeded') setError('The store has as many currencies as it can have: remove one first.');
      else if (apiError.fields.currency) setError(`${upper} is not a currency in circulation: use its three-letter code, e.g. USD.`);
      else toast.show({ tone: 'error', message: 'The currency was not added.', details: apiError.message });
    } finally {
      setBusy(false);
    }
  };

  const remove = async (currency: StoreCurrencyFieldsFragment, deletePrices: boolean) => {
    const name = `${currencyName(currency.currency, currency.name)} (${currency.currency})`;
    try {
      await mutate(RemoveStoreCurrencyDocument, { storeId, currency: currency.currency, deletePrices });
      setBlocked(null);
      toast.show({ message: deletePrices ? `Removed ${name} and its prices.` : `Removed ${name}.` });
      await reload();
    } catch (caught) {
      const apiError = toApiError(caught);
      if (apiError.code === 'currency_in_use') setBlocked({ currency: currency.currency, count: countIn(apiError.message, 'product') ?? 0 });
      else toast.show({ tone: 'error', message: `${name} was not removed.`, details: apiError.message });
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
          return (
            <li key={currency.currency} className="locale-item">
              <span className="locale-name">
                <strong>{name}</strong> <code className="muted">{currency.currency}</code>{' '}
                <span className="muted small">{currency.minorUnits === 0 ? 'no decimals' : plural(currency.minorUnits, 'decimal', 'decimals')}</span>{' '}
                {currency.default ? <Badge tone="blue">Default</Badge> : null}
              </span>
              {currency.default ? null : (
                <span className="row-actions">
                  <ConfirmButton confirmLabel="Remove" question={`Remove ${name}?`} onConfirm={() => remove(currency, false)} className="button-danger button-small">
                    Remove<span className="visually-hidden"> {name}</span>
                  </ConfirmButton>
                </span>
              )}
              {blocked?.currency === currency.currency ? (
                <RemoveWithData
                  key={`${currency.currency}-${blocked.count}`}
                  question={`${blocked.count ? plural(blocked.count, 'product has', 'products have') : 'Products have'} prices in ${name}.`}
                  explanation="A currency that products have prices in is removed only together with those prices. They are then deleted for good, in the test and the live catalog."
                  choice={`Also delete the prices in ${currency.currency}`}
                  action={`Remove ${currency.currency} and its prices`}
                  onConfirm={() => remove(currency, true)}
                  onCancel={() => setBlocked(null)}
                />
              ) : null}
            </li>
          );
        })}
      </ul>
      <form className="inline-form add-form" onSubmit={add} noValidate aria-labelledby="add-currency-title">
        <h3 id="add-currency-title">Add a currency</h3>
        <Field label="Currency code" hint={preview ? `${preview} (${upper})` : 'Three letters, e.g. USD, JPY, CHF.'} error={error}>
          {(p) => (
            <input
              {...p}
              value={code}
              maxLength={3}
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => {
                setCode(e.target.value);
                setError(undefined);
              }}
            />
          )}
        </Field>
        <button type="submit" disabled={busy}>
          {preview ? `Add ${preview}` : 'Add currency'}
        </button>
      </form>
    </section>
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
