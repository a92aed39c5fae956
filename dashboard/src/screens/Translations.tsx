import { useCallback, useEffect, useState } from 'react';
import { query, toApiError, type ApiError } from '../api/client';
import { Badge, EmptyState, ErrorMessage, Field, Loading, PageTitle } from '../components/ui';
import { StoreLanguagesDocument, TranslationStatusDocument, type StoreLocaleFieldsFragment, type TranslationStatusQuery } from '../generated/graphql';
import { languageName } from '../lib/languages';
import { Link, navigate, useLocation } from '../lib/router';
import { useWorkspace } from '../session';
import { KIND_WORDS, translationFieldLabel } from './translations/fieldWords';
import './translations/translations.css';

const PAGE_SIZE = 20;

type Status = TranslationStatusQuery['translationStatus'];

/** What is left to translate in one of the store's further languages: counts per kind, then the items, each opening its editor. */
export function TranslationsPage() {
  const { storeId } = useWorkspace();
  const { search } = useLocation();
  const [locales, setLocales] = useState<StoreLocaleFieldsFragment[] | null>(null);
  const [error, setError] = useState<ApiError | null>(null);

  const load = useCallback(async () => {
    try {
      setLocales((await query(StoreLanguagesDocument, { storeId })).storeLocales);
    } catch (caught) {
      setError(toApiError(caught));
    }
  }, [storeId]);
  useEffect(() => {
    void load();
  }, [load]);

  const further = (locales ?? []).filter((l) => !l.default);
  const requested = search.get('locale');
  const locale = further.find((l) => l.locale === requested)?.locale ?? further[0]?.locale ?? null;
  const defaultLocale = locales?.find((l) => l.default);

  return (
    <>
      <PageTitle>Translations</PageTitle>
      {error ? (
        <ErrorMessage error={error} title="The store's languages could not be loaded." />
      ) : !locales ? (
        <Loading label="Loading the languages…" />
      ) : further.length === 0 ? (
        <EmptyState title="Your shop has only one language.">
          <p>
            Add a language in <Link to="languages">Languages and currencies</Link> to translate your products into it.
          </p>
        </EmptyState>
      ) : (
        <>
          <p className="muted">
            Products are written in {defaultLocale ? languageName(defaultLocale.locale, defaultLocale.name) : 'the default language'}. A field is{' '}
            <strong>missing</strong> when it has no translation yet, and <strong>outdated</strong> when its original text changed after it was translated.
          </p>
          <div className="filters">
            <Field label="Language">
              {(p) => (
                <select {...p} value={locale ?? ''} onChange={(e) => navigate(`translations?locale=${encodeURIComponent(e.target.value)}`, { replace: true })}>
                  {further.map((l) => (
                    <option key={l.locale} value={l.locale}>
                      {languageName(l.locale, l.name)} ({l.locale})
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
          {locale ? <LocaleStatus key={locale} locale={locale} /> : null}
        </>
      )}
    </>
  );
}

function LocaleStatus({ locale }: { locale: string }) {
  const { storeId, mode } = useWorkspace();
  // The cursors of the pages before this one, to go back.
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [status, setStatus] = useState<Status | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const after = cursors[cursors.length - 1] ?? null;

  useEffect(() => {
    let live = true;
    setError(null);
    query(TranslationStatusDocument, { storeId, mode, locale, first: PAGE_SIZE, after })
      .then((data) => live && setStatus(data.translationStatus))
      .catch((caught: unknown) => live && setError(toApiError(caught)));
    return () => {
      live = false;
    };
  }, [storeId, mode, locale, after]);

  if (error) return <ErrorMessage error={error} title="What is left to translate could not be loaded." />;
  if (!status) return <Loading label="Counting what is left to translate…" />;
  const name = languageName(locale);
  const items = status.edges.map((e) => e.node);
  const page = cursors.length;

  return (
    <>
      <section className="panel" aria-labelledby="status-counts">
        <h2 id="status-counts">{name}: what is left</h2>
        <div className="table-wrap">
          <table className="table table-compact status-counts">
            <caption className="visually-hidden">Items to translate into {name}, by kind</caption>
            <thead>
              <tr>
                <th scope="col">Kind</th>
                <th scope="col">All</th>
                <th scope="col">Missing</th>
                <th scope="col">Outdated</th>
                <th scope="col">To do</th>
              </tr>
            </thead>
            <tbody>
              {status.counts.map((c) => (
                <tr key={c.kind} data-kind={c.kind}>
                  <th scope="row">{KIND_WORDS[c.kind]?.many ?? c.kind}</th>
                  <td>{c.total}</td>
                  <td>{c.missing}</td>
                  <td>{c.outdated}</td>
                  <td>
                    <strong>{c.todo}</strong>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section aria-labelledby="status-items">
        <h2 id="status-items">To translate</h2>
        {items.length === 0 ? (
          <EmptyState title={`Everything is translated into ${name}.`} />
        ) : (
          <ul className="translation-items">
            {items.map((item) => {
              const base = ({ product: 'products', category: 'categories', attribute: 'attributes' } as Record<string, string | undefined>)[item.kind];
              const to = base ? `${base}/${item.id}/translate?locale=${encodeURIComponent(locale)}` : null;
              return (
                <li key={`${item.kind}:${item.id}`} className="translation-item">
                  <div>
                    <span className="muted small">{KIND_WORDS[item.kind]?.one ?? item.kind}</span>{' '}
                    {to ? (
                      <Link to={to}>
                        <strong>{item.name}</strong>
                        <span className="visually-hidden"> — translate into {name}</span>
                      </Link>
                    ) : (
                      <strong>{item.name}</strong>
                    )}
                  </div>
                  <div className="field-marks">
                    {item.missingFields.map((f) => (
                      <Badge key={`m-${f}`} tone="grey">
                        {translationFieldLabel(f)}: missing
                      </Badge>
                    ))}
                    {item.outdatedFields.map((f) => (
                      <Badge key={`o-${f}`} tone="amber">
                        {translationFieldLabel(f)}: outdated
                      </Badge>
                    ))}
                  </div>
                </li>
              );
            })}
          </ul>
        )}
        {page > 1 || status.pageInfo.hasNextPage ? (
          <nav className="pager" aria-label="Pages">
            <button type="button" className="button-secondary" disabled={page === 1} onClick={() => setCursors((c) => c.slice(0, -1))}>
              Previous
            </button>
            <span>Page {page}</span>
            <button type="button" className="button-secondary" disabled={!status.pageInfo.hasNextPage} onClick={() => setCursors((c) => [...c, status.pageInfo.endCursor ?? null])}>
              Next
            </button>
          </nav>
        ) : null}
      </section>
    </>
  );
}
