import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react';
import { mutate, query, toApiError, type ApiError } from '../../api/client';
import { ErrorMessage, Field, Loading } from '../../components/ui';
import { useToast } from '../../components/toasts';
import { ProductPricesDocument, UpdateProductPricesDocument, type StoreCurrencyFieldsFragment } from '../../generated/graphql';
import { amountProblem, currencyName, exampleAmount } from '../../lib/languages';
import { Link, useLeaveGuard } from '../../lib/router';
import { useWorkspace } from '../../session';
import '../translations/translations.css';

interface PriceRow {
  currency: string;
  amount: string;
  compareAt: string;
}

type Written = { version: number; updatedAt: string };

/**
 * The product's prices in the store's further currencies, a row per currency (amount and compare-at), saved on
 * their own. Amounts are checked as the service checks them (exactly the currency's digits after the point); every
 * error shows at its field.
 */
export function CurrencyPrices({ productId, version, onSaved, onConflict }: { productId: string; version: number; onSaved: (written: Written) => void; onConflict: () => void }) {
  const { storeId, mode } = useWorkspace();
  const toast = useToast();
  const [currencies, setCurrencies] = useState<StoreCurrencyFieldsFragment[] | null>(null);
  const [rows, setRows] = useState<PriceRow[]>([]);
  const [baseline, setBaseline] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [loadError, setLoadError] = useState<ApiError | null>(null);
  const [general, setGeneral] = useState<ApiError | null>(null);
  const [saving, setSaving] = useState(false);
  // The last failure's toast, closed once the prices save.
  const failure = useRef<number | null>(null);
  const fail = (message: string, details?: string) => {
    if (failure.current !== null) toast.dismiss(failure.current);
    failure.current = toast.show({ tone: 'error', message, details });
  };

  const adoptPrices = useCallback((further: StoreCurrencyFieldsFragment[], prices: { currency: string; amount: string; compareAtAmount?: string | null }[]) => {
    const next = further.map((c) => {
      const price = prices.find((p) => p.currency === c.currency);
      return { currency: c.currency, amount: price?.amount ?? '', compareAt: price?.compareAtAmount ?? '' };
    });
    setRows(next);
    setBaseline(JSON.stringify(next));
  }, []);

  useEffect(() => {
    let live = true;
    query(ProductPricesDocument, { storeId, mode, id: productId })
      .then((data) => {
        if (!live) return;
        const further = data.storeCurrencies.filter((c) => !c.default);
        setCurrencies(further);
        adoptPrices(further, data.product.prices);
      })
      .catch((caught: unknown) => live && setLoadError(toApiError(caught)));
    return () => {
      live = false;
    };
  }, [storeId, mode, productId, adoptPrices]);

  const dirty = baseline !== '' && JSON.stringify(rows) !== baseline;
  useLeaveGuard(dirty && !saving);

  const save = async () => {
    if (!currencies) return;
    setGeneral(null);
    const local: Record<string, string> = {};
    const prices: { currency: string; amount: string; compareAtAmount: string | null }[] = [];
    rows.forEach((row) => {
      const digits = currencies.find((c) => c.currency === row.currency)!.minorUnits;
      const amount = row.amount.trim();
      const compareAt = row.compareAt.trim();
      const index = prices.length;
      if (!amount) {
        if (compareAt) local[`${row.currency}.amount`] = 'Enter the price first: a compare-at price needs one.';
        return;
      }
      const amountError = amountProblem(amount, digits);
      if (amountError) local[`${row.currency}.amount`] = amountError;
      const compareError = compareAt ? amountProblem(compareAt, digits) : null;
      if (compareError) local[`${row.currency}.compareAt`] = compareError;
      prices[index] = { currency: row.currency, amount, compareAtAmount: compareAt || null };
    });
    setErrors(local);
    const count = Object.keys(local).length;
    if (count) {
      fail(`The prices were not saved: ${count === 1 ? 'one field needs' : `${count} fields need`} correcting.`);
      return;
    }
    setSaving(true);
    try {
      const saved = (await mutate(UpdateProductPricesDocument, { storeId, mode, id: productId, expectedVersion: version, prices })).updateProduct;
      adoptPrices(currencies, saved.prices);
      onSaved({ version: saved.version, updatedAt: saved.updatedAt });
      if (failure.current !== null) toast.dismiss(failure.current);
      failure.current = null;
      toast.show({ message: 'Saved the prices.' });
    } catch (caught) {
      const apiError = toApiError(caught);
      if (apiError.code === 'precondition_failed') {
        onConflict();
        return;
      }
      // The service names prices by their place in the list sent: prices.0.amount.
      const byField: Record<string, string> = {};
      for (const [field, message] of Object.entries(apiError.fields)) {
        const found = /^prices\.(\d+)\.(amount|compareAtAmount|compare_at_amount|currency)$/.exec(field);
        const price = found ? prices[Number(found[1])] : undefined;
        if (!price) continue;
        byField[`${price.currency}.${found![2] === 'amount' || found![2] === 'currency' ? 'amount' : 'compareAt'}`] = priceWords(message, found![2]!);
      }
      setErrors(byField);
      const n = Object.keys(byField).length;
      if (!n) setGeneral(apiError);
      fail(n ? `The prices were not saved: ${n === 1 ? 'one field needs' : `${n} fields need`} correcting.` : 'The prices were not saved.', n ? undefined : apiError.message);
    } finally {
      setSaving(false);
    }
  };

  const set = (currency: string, key: 'amount' | 'compareAt', value: string) => setRows((list) => list.map((r) => (r.currency === currency ? { ...r, [key]: value } : r)));
  // Enter in a price saves the prices, not the product form around them.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && event.target instanceof HTMLInputElement) {
      event.preventDefault();
      void save();
    }
  };

  return (
    <section className="panel" aria-labelledby="section-currency-prices" onKeyDown={onKeyDown}>
      <h2 id="section-currency-prices">Prices in other currencies</h2>
      {loadError ? (
        <ErrorMessage error={loadError} title="The prices in other currencies could not be loaded." />
      ) : !currencies ? (
        <Loading label="Loading the prices…" />
      ) : currencies.length === 0 ? (
        <p className="muted">
          Your shop sells in one currency. Add another in <Link to="languages">Languages and currencies</Link> to give this product a price in it.
        </p>
      ) : (
        <>
          <p className="muted small">No exchange rate is applied: leave a price empty and the product has no price in that currency.</p>
          <ErrorMessage error={general} title="The prices were not saved." />
          {currencies.map((c) => {
            const row = rows.find((r) => r.currency === c.currency)!;
            const hint = c.minorUnits === 0 ? `No decimals, e.g. ${exampleAmount(0)}.` : `${c.minorUnits} decimals, e.g. ${exampleAmount(c.minorUnits)}.`;
            return (
              <div key={c.currency} className="grid-2 currency-price-row" role="group" aria-label={`${currencyName(c.currency, c.name)} (${c.currency})`}>
                <Field label={`Price (${c.currency})`} hint={hint} error={errors[`${c.currency}.amount`]}>
                  {(p) => <input {...p} inputMode="decimal" value={row.amount} onChange={(e) => set(c.currency, 'amount', e.target.value)} />}
                </Field>
                <Field label={`Compare-at price (${c.currency})`} hint="The “was” price, above the price; optional." error={errors[`${c.currency}.compareAt`]}>
                  {(p) => <input {...p} inputMode="decimal" value={row.compareAt} onChange={(e) => set(c.currency, 'compareAt', e.target.value)} />}
                </Field>
              </div>
            );
          })}
          <div className="button-row">
            <button type="button" onClick={() => void save()} disabled={saving || !dirty}>
              {saving ? 'Saving…' : 'Save prices'}
            </button>
            {dirty ? <span className="muted small">Unsaved price changes</span> : null}
          </div>
        </>
      )}
    </section>
  );
}

/** The service's message for a price field, in the editor's words where it has a known meaning. */
function priceWords(message: string, field: string): string {
  if (/above|greater/.test(message) && field !== 'amount') return 'The compare-at price must be above the price.';
  return message.charAt(0).toUpperCase() + message.slice(1);
}
