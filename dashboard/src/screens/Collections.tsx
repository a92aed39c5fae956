import { useCallback, useEffect, useState } from 'react';
import { query, toApiError, type ApiError } from '../api/client';
import { Badge, EmptyState, ErrorMessage, Loading, PageTitle } from '../components/ui';
import { CollectionsDocument, type CollectionsQuery } from '../generated/graphql';
import { formatDateTime } from '../lib/format';
import { Link, match } from '../lib/router';
import { useWorkspace } from '../session';
import { CollectionEditorPage } from './collections/CollectionEditor';
import './collections/collections.css';

/** The collections' pages (loaded on demand): the list, a new collection and one collection. */
export default function CollectionsScreen({ path }: { path: string }) {
  if (path === 'collections') return <CollectionsPage />;
  if (path === 'collections/new') return <CollectionEditorPage collectionId={null} />;
  const params = match('collections/:id', path);
  if (!params) {
    return (
      <>
        <PageTitle>Page not found</PageTitle>
        <p>
          There is no dashboard page at this address. <Link to="collections">Go to the collections</Link>.
        </p>
      </>
    );
  }
  return <CollectionEditorPage collectionId={params.id!} key={params.id} />;
}

const PER_PAGE = 50;

type Page = CollectionsQuery['collections'];

function CollectionsPage() {
  const { storeId, mode } = useWorkspace();
  const [page, setPage] = useState(1);
  const [state, setState] = useState<{ loading: boolean; data?: Page; error?: ApiError }>({ loading: true });

  const load = useCallback(async () => {
    setState((s) => ({ ...s, loading: true, error: undefined }));
    try {
      const d = await query(CollectionsDocument, { storeId, mode, page, perPage: PER_PAGE });
      setState({ loading: false, data: d.collections });
    } catch (caught) {
      setState({ loading: false, error: toApiError(caught) });
    }
  }, [storeId, mode, page]);

  useEffect(() => {
    void load();
  }, [load]);

  const items = state.data?.items ?? [];
  return (
    <>
      <PageTitle
        actions={
          <Link to="collections/new" className="button button-primary">
            New collection
          </Link>
        }
      >
        Collections
      </PageTitle>
      <p className="muted">
        Collections group products for the storefront: a manual collection is a list you arrange by hand; a smart one holds every
        product that matches its rules, and stays up to date as products change.
      </p>
      {state.loading && !state.data ? <Loading label="Loading the collections…" /> : null}
      <ErrorMessage error={state.error} title="The collections could not be loaded.">
        <button type="button" onClick={() => void load()}>
          Try again
        </button>
      </ErrorMessage>
      {state.data && items.length === 0 ? (
        <EmptyState title="No collections yet.">
          <p>
            <Link to="collections/new">Create a collection</Link> to group products such as “Summer sale” or “Under 50”.
          </p>
        </EmptyState>
      ) : null}
      {items.length > 0 ? (
        <div className="table-wrap">
          <table className="table collections-table">
            <caption className="visually-hidden">Collections</caption>
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Type</th>
                <th scope="col" className="num">
                  Products
                </th>
                <th scope="col">Storefront</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {items.map((c) => (
                <tr key={c.id}>
                  <td>
                    <Link to={`collections/${c.id}`}>{c.title}</Link>
                    <div className="muted small">{c.slug}</div>
                  </td>
                  <td>{c.kind === 'smart' ? 'Smart' : 'Manual'}</td>
                  <td className="num">{c.productsCount.toLocaleString()}</td>
                  <td>{c.published ? <Badge tone="green">Published</Badge> : <Badge tone="grey">Hidden</Badge>}</td>
                  <td className="small">{formatDateTime(c.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {state.data && state.data.meta.totalPages > 1 ? (
        <nav className="pager" aria-label="Pages of collections">
          <button type="button" className="button-secondary" onClick={() => setPage(page - 1)} disabled={page <= 1 || state.loading}>
            Previous page
          </button>
          <span>
            Page {page} of {state.data.meta.totalPages}
          </span>
          <button type="button" className="button-secondary" onClick={() => setPage(page + 1)} disabled={!state.data.meta.hasMore || state.loading}>
            Next page
          </button>
        </nav>
      ) : null}
    </>
  );
}
