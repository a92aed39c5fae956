import { useCallback, useEffect, useState } from 'react';
import { query, toApiError, type ApiError } from '../api/client';
import { EmptyState, ErrorMessage, Loading, PageTitle } from '../components/ui';
import { ChangesDocument, type ChangeFilter, type ChangesQuery } from '../generated/graphql';
import { formatDateTime } from '../lib/format';
import { fieldName, HIDDEN_FIELDS, valueInWords } from './history/changeWords';
import { Link } from '../lib/router';
import { useWorkspace } from '../session';

type ChangeNode = ChangesQuery['changes']['edges'][number]['node'];

const TYPE_LABELS: Record<string, string> = {
  'product.created': 'Created',
  'product.updated': 'Updated',
  'product.deleted': 'Deleted',
  'product.published': 'Published',
  'product.unpublished': 'Unpublished',
  'product.variants_replaced': 'Variants replaced',
  'product.seo_updated': 'Search listing updated',
  'product.image_added': 'Image added',
  'product.image_removed': 'Image removed',
  'product.images_updated': 'Images reordered or described',
};

const ACTOR_KINDS: Record<string, string> = { user: 'staff', api_key: 'API key', oauth_app: 'app', system: 'system' };

const SOURCE_LABELS: Record<string, string> = {
  dashboard_graphql: 'dashboard',
  merchant_rest: 'merchant API',
  public_api: 'public API',
  cli: 'command line',
  system: 'system',
};

/** The change history of one product, or of the whole store (the Activity page). */
export function HistoryPage({ productId }: { productId: string | null }) {
  const { storeId, mode } = useWorkspace();
  const [items, setItems] = useState<ChangeNode[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<ApiError | null>(null);
  const [productName, setProductName] = useState<string | null>(null);

  const load = useCallback(
    async (after: string | null) => {
      const filter: ChangeFilter = productId ? { resourceType: 'product', resourceId: productId, mode } : { mode };
      setLoading(true);
      setError(null);
      try {
        const data = await query(ChangesDocument, { storeId, filter, first: 25, after });
        const nodes = data.changes.edges.map((e) => e.node);
        setItems((current) => (after ? [...current, ...nodes] : nodes));
        setCursor(data.changes.pageInfo.endCursor ?? null);
        setHasMore(data.changes.pageInfo.hasNextPage);
      } catch (caught) {
        setError(toApiError(caught));
      } finally {
        setLoading(false);
      }
    },
    [storeId, productId, mode],
  );

  useEffect(() => {
    void load(null);
  }, [load]);

  useEffect(() => {
    if (!productId) return;
    // The name, from the latest change that carries one (a deleted product has no other source).
    const named = items.find((c) => c.data && typeof c.data === 'object' && 'name' in (c.data as Record<string, unknown>));
    if (named) setProductName(String((named.data as Record<string, unknown>).name));
  }, [items, productId]);

  return (
    <>
      <PageTitle>{productId ? `History${productName ? ` of ${productName}` : ''}` : 'Activity'}</PageTitle>
      <p className="breadcrumb">
        {productId ? <Link to={`products/${productId}`}>← Back to the product</Link> : <span className="muted">Every recorded change of the store in the {mode} mode, newest first.</span>}
      </p>
      <ErrorMessage error={error} title="The history could not be loaded.">
        <button type="button" onClick={() => void load(null)}>
          Try again
        </button>
      </ErrorMessage>
      {loading && items.length === 0 ? <Loading label="Loading the history…" /> : null}
      {!loading && !error && items.length === 0 ? <EmptyState title="No changes recorded yet." /> : null}
      {items.length > 0 ? (
        <ol className="timeline">
          {items.map((change) => (
            <ChangeItem key={change.id} change={change} showResource={!productId} />
          ))}
        </ol>
      ) : null}
      {hasMore ? (
        <button type="button" className="button-secondary" disabled={loading} onClick={() => void load(cursor)}>
          {loading ? 'Loading…' : 'Show older changes'}
        </button>
      ) : null}
    </>
  );
}

function ChangeItem({ change, showResource }: { change: ChangeNode; showResource: boolean }) {
  const label = TYPE_LABELS[change.type] ?? change.type;
  const name = change.data && typeof change.data === 'object' ? (change.data as Record<string, unknown>).name : undefined;
  const visible = (change.changes ?? []).filter((c) => !HIDDEN_FIELDS.has(c.field));
  return (
    <li className="timeline-item">
      <div className="timeline-head">
        <span className="timeline-type">{label}</span>
        {showResource ? (
          <span>
            {' '}
            {change.resource.type === 'product' && change.type !== 'product.deleted' ? (
              <Link to={`products/${change.resource.id}`}>{typeof name === 'string' ? name : change.resource.id}</Link>
            ) : (
              <span className="muted">{typeof name === 'string' ? name : `${change.resource.type} ${change.resource.id}`}</span>
            )}
          </span>
        ) : null}
        <span className="muted small">
          {' '}
          · {formatDateTime(change.occurredAt)} · by {change.actor.name} ({ACTOR_KINDS[change.actor.kind] ?? change.actor.kind.replace(/_/g, ' ')}) via {SOURCE_LABELS[change.source] ?? change.source}
          {change.resource.version !== null ? ` · version ${change.resource.version}` : ''}
        </span>
      </div>
      {visible.length > 0 ? (
        <dl className="change-list">
          {visible.map((c) => (
            <div key={c.field} className="change-row">
              <dt>{fieldName(c.field)}</dt>
              <dd>
                {valueInWords(c.field.split('.')[0]!, c.previous)} <span aria-hidden="true">→</span>
                <span className="visually-hidden"> changed to </span> {valueInWords(c.field.split('.')[0]!, c.next)}
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
    </li>
  );
}
