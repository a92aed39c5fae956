import { useCallback, useEffect, useId, useState } from 'react';
import { mutate, query, toApiError, type ApiError } from '../../api/client';
import { ErrorMessage, Loading } from '../../components/ui';
import { useToast } from '../../components/toasts';
import {
  AddCollectionProductsDocument,
  CollectionMembersDocument,
  MoveCollectionProductsDocument,
  RemoveCollectionProductsDocument,
  type CollectionDetailFragment,
  type CollectionMemberFragment,
} from '../../generated/graphql';
import { formatMoney } from '../../lib/format';
import { useDragReorder } from '../../lib/dragReorder';
import { Link } from '../../lib/router';
import { useWorkspace } from '../../session';
import { StatusBadge } from '../ProductList';
import { ProductPicker } from './ProductPicker';

const PAGE = 50;

/**
 * A manual collection's products in its order: dragged to a new place (or moved with the keyboard's Move buttons),
 * each move one call that names the product and its new position; added with the product search; removed with a
 * way back. Every change answers the collection, whose version the next change sends.
 */
export function ManualProducts({
  collection,
  onCollection,
  onConflict,
}: {
  collection: CollectionDetailFragment;
  onCollection: (c: CollectionDetailFragment) => void;
  onConflict: () => void;
}) {
  const { storeId, mode, store } = useWorkspace();
  const toast = useToast();
  const baseId = useId();
  const [members, setMembers] = useState<CollectionMemberFragment[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loadState, setLoadState] = useState<{ loading: boolean; error?: ApiError }>({ loading: true });
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const [focusAfter, setFocusAfter] = useState<string | null>(null);
  const arranged = collection.sort === 'manual';
  const sortKey = collection.sort;

  const load = useCallback(
    async (pages: number) => {
      setLoadState({ loading: true });
      try {
        const items: CollectionMemberFragment[] = [];
        let more = false;
        for (let page = 1; page <= pages; page++) {
          const d = await query(CollectionMembersDocument, { storeId, mode, collection: collection.id, page, perPage: PAGE });
          items.push(...d.collectionProducts.items);
          more = d.collectionProducts.meta.hasMore;
          if (!more) break;
        }
        setMembers(items);
        setHasMore(more);
        setLoadState({ loading: false });
      } catch (caught) {
        setLoadState({ loading: false, error: toApiError(caught) });
      }
    },
    [storeId, mode, collection.id],
  );

  useEffect(() => {
    void load(1);
    // The list is read again when the collection's sort changes.
  }, [load, sortKey]);

  useEffect(() => {
    if (!focusAfter) return;
    document.getElementById(focusAfter)?.focus();
    setFocusAfter(null);
  }, [focusAfter]);

  /** Runs one change of the list; a refusal puts the list back as it was and says why. */
  const change = async (what: string, run: () => Promise<CollectionDetailFragment>, undo?: () => void) => {
    setBusy(true);
    try {
      onCollection(await run());
      return true;
    } catch (caught) {
      undo?.();
      const error = toApiError(caught);
      if (error.code === 'precondition_failed') onConflict();
      else toast.show({ tone: 'error', message: `${what} did not happen.`, details: error.message });
      return false;
    } finally {
      setBusy(false);
    }
  };

  const moveTo = async (from: number, to: number, focusId?: string) => {
    if (from === to || to < 0 || to >= members.length || busy) return;
    const before = members;
    const next = [...members];
    const [moved] = next.splice(from, 1);
    next.splice(to, 0, moved!);
    setMembers(next);
    if (focusId) setFocusAfter(focusId);
    const done = await change(
      `Moving “${moved!.name}”`,
      async () =>
        (await mutate(MoveCollectionProductsDocument, { storeId, mode, collection: collection.id, expectedVersion: collection.version, moves: [{ productId: moved!.id, position: to }] }))
          .moveCollectionProducts,
      () => setMembers(before),
    );
    if (done) setStatus(`“${moved!.name}” moved to position ${to + 1} of ${collection.productsCount}.`);
  };

  const drag = useDragReorder((from, to) => void moveTo(from, to), arranged && !busy);

  // The Move buttons stay enabled while a change is sent (a disabled button would lose the focus); a move asked meanwhile is ignored.
  const move = (index: number, by: -1 | 1) => {
    const target = index + by;
    const product = members[index]!;
    // The focus stays on the moved product: on the same button, or on the other one when it reached an end.
    const atEnd = by === -1 ? target === 0 : target === members.length - 1;
    const direction = atEnd ? (by === -1 ? 'down' : 'up') : by === -1 ? 'up' : 'down';
    void moveTo(index, target, `${baseId}-${product.id}-${direction}`);
  };

  const add = async (product: CollectionMemberFragment) => {
    const done = await change(`Adding “${product.name}”`, async () => (await mutate(AddCollectionProductsDocument, { storeId, mode, collection: collection.id, expectedVersion: collection.version, productIds: [product.id] })).addCollectionProducts);
    if (!done) return;
    setFocusAfter(`${baseId}-search`);
    if (arranged && !hasMore) setMembers((list) => [...list, product]);
    else void load(Math.max(1, Math.ceil(members.length / PAGE)));
    toast.show({ message: `Added “${product.name}”.` });
  };

  const remove = async (index: number) => {
    const product = members[index]!;
    const before = members;
    setMembers(members.filter((_, i) => i !== index));
    const done = await change(
      `Removing “${product.name}”`,
      async () => (await mutate(RemoveCollectionProductsDocument, { storeId, mode, collection: collection.id, expectedVersion: collection.version, productIds: [product.id] })).removeCollectionProducts,
      () => setMembers(before),
    );
    if (!done) return;
    setFocusAfter(`${baseId}-search`);
    toast.show({
      message: `Removed “${product.name}” from the collection.`,
      action: {
        label: 'Undo',
        onAction: () => {
          // Back in its place; the collection's current version is read by the add itself.
          void mutate(AddCollectionProductsDocument, { storeId, mode, collection: collection.id, productIds: [product.id], position: index })
            .then((d) => {
              onCollection(d.addCollectionProducts);
              void load(Math.max(1, Math.ceil((members.length + 1) / PAGE)));
              toast.show({ tone: 'info', message: `“${product.name}” is back in the collection.` });
            })
            .catch((caught) => toast.show({ tone: 'error', message: `“${product.name}” was not put back.`, details: toApiError(caught).message }));
        },
      },
    });
  };

  const memberIds = new Set(members.map((m) => m.id));
  return (
    <div className="manual-products">
      <ProductPicker inputId={`${baseId}-search`} isMember={(id) => memberIds.has(id)} onAdd={(p) => void add(p)} disabled={busy} />
      <h3>
        In this collection <span className="muted">({collection.productsCount.toLocaleString()})</span>
      </h3>
      {arranged ? (
        members.length > 1 ? <p className="hint">Drag a product to another place to reorder, or use its Move buttons. Each move is saved at once.</p> : null
      ) : (
        <p className="hint">The products are listed in the collection's sort. Choose “Manual order” as its sort (and save) to arrange them by hand.</p>
      )}
      {loadState.loading && members.length === 0 ? <Loading label="Loading the products…" /> : null}
      <ErrorMessage error={loadState.error ?? null} title="The products could not be loaded." />
      {!loadState.loading && !loadState.error && members.length === 0 ? <p className="muted">No products yet: search for products above to add them.</p> : null}
      {members.length > 0 ? (
        <ol className="member-list" aria-label="Products in this collection">
          {members.map((product, index) => {
            const n = index + 1;
            const image = [...product.images].sort((a, b) => a.position - b.position)[0];
            return (
              <li
                key={product.id}
                className={`member-row${drag.dragging(index) ? ' member-row-dragging' : ''}${drag.target(index) ? ' member-row-target' : ''}`}
                data-testid="member"
                {...drag.itemProps(index, product.id)}
              >
                <span className="member-position" aria-hidden="true">
                  {n}
                </span>
                {image ? <img className="thumb" src={image.url} alt="" width={40} height={40} loading="lazy" /> : <span className="thumb-empty" aria-hidden="true" />}
                <span className="member-name">
                  <Link to={`products/${product.id}`}>{product.name}</Link>
                  <span className="member-facts">
                    <StatusBadge status={product.status} /> <span className="muted">{formatMoney(product.price, product.currency || store.currency)}</span>
                  </span>
                </span>
                <span className="button-row member-actions">
                  {arranged ? (
                    <>
                      <button type="button" id={`${baseId}-${product.id}-up`} className="button-secondary button-small" onClick={() => move(index, -1)} disabled={index === 0}>
                        Move <span className="visually-hidden">{product.name} </span>up
                      </button>
                      <button
                        type="button"
                        id={`${baseId}-${product.id}-down`}
                        className="button-secondary button-small"
                        onClick={() => move(index, 1)}
                        disabled={index === members.length - 1}
                      >
                        Move <span className="visually-hidden">{product.name} </span>down
                      </button>
                    </>
                  ) : null}
                  <button type="button" className="button-secondary button-small" onClick={() => !busy && void remove(index)}>
                    Remove<span className="visually-hidden"> {product.name}</span>
                  </button>
                </span>
              </li>
            );
          })}
        </ol>
      ) : null}
      {hasMore ? (
        <button type="button" className="button-secondary" onClick={() => void load(Math.ceil(members.length / PAGE) + 1)} disabled={loadState.loading}>
          Show more products
        </button>
      ) : null}
      <p role="status" className="hint">
        {status}
      </p>
    </div>
  );
}
