import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { toApiError } from '../api/client';
import { Badge, EmptyState, ErrorMessage, Loading, PageTitle } from '../components/ui';
import { useToast } from '../components/toasts';
import {
  ProductListDocument,
  type ProductFilter,
  type ProductListItemFragment,
  type ProductSort,
} from '../generated/graphql';
import { formatDateTime, formatMoney, splitList } from '../lib/format';
import { Link, navigate, useLocation } from '../lib/router';
import { useWorkspace } from '../session';
import { rememberListPath } from '../lib/listState';
import { StagedBadge } from './editor/StagedChanges';
import { BulkBar } from './productList/BulkBar';
import { runBulkAction, type BulkAction } from './productList/bulkActions';
import { TestDataTools } from './TestDataTools';

const SORTS: { value: ProductSort | ''; label: string }[] = [
  { value: '', label: 'Newest first (best match when searching)' },
  { value: 'CREATED_AT_ASC', label: 'Oldest first' },
  { value: 'NAME_ASC', label: 'Name A–Z' },
  { value: 'NAME_DESC', label: 'Name Z–A' },
  { value: 'PRICE_ASC', label: 'Price, low to high' },
  { value: 'PRICE_DESC', label: 'Price, high to low' },
  { value: 'INVENTORY_QUANTITY_ASC', label: 'Inventory, low to high' },
  { value: 'INVENTORY_QUANTITY_DESC', label: 'Inventory, high to low' },
];

const PER_PAGE = [10, 20, 50, 100];

interface ListParams {
  q: string;
  category: string;
  tags: string;
  active: '' | 'true' | 'false';
  lowStock: boolean;
  scheduled: '' | 'true' | 'false';
  sort: ProductSort | '';
  page: number;
  perPage: number;
}

function readParams(search: URLSearchParams): ListParams {
  const active = search.get('active');
  const scheduled = search.get('scheduled');
  const sort = search.get('sort') ?? '';
  const perPage = Number(search.get('perPage'));
  return {
    q: search.get('q') ?? '',
    category: search.get('category') ?? '',
    tags: search.get('tags') ?? '',
    active: active === 'true' || active === 'false' ? active : '',
    lowStock: search.get('lowStock') === 'true',
    scheduled: scheduled === 'true' || scheduled === 'false' ? scheduled : '',
    sort: SORTS.some((s) => s.value === sort) ? (sort as ProductSort | '') : '',
    page: Math.max(1, Math.floor(Number(search.get('page')) || 1)),
    perPage: PER_PAGE.includes(perPage) ? perPage : 20,
  };
}

function writeParams(params: ListParams): string {
  const search = new URLSearchParams();
  if (params.q) search.set('q', params.q);
  if (params.category) search.set('category', params.category);
  if (params.tags) search.set('tags', params.tags);
  if (params.active) search.set('active', params.active);
  if (params.lowStock) search.set('lowStock', 'true');
  if (params.scheduled) search.set('scheduled', params.scheduled);
  if (params.sort) search.set('sort', params.sort);
  if (params.page > 1) search.set('page', String(params.page));
  if (params.perPage !== 20) search.set('perPage', String(params.perPage));
  const text = search.toString();
  return text ? `products?${text}` : 'products';
}

function toFilter(params: ListParams): ProductFilter | null {
  const filter: ProductFilter = {};
  if (params.q.trim()) filter.search = params.q.trim();
  if (params.category) filter.category = params.category;
  const tags = splitList(params.tags);
  if (tags.length) filter.tags = tags;
  if (params.active) filter.isActive = params.active === 'true';
  if (params.lowStock) filter.lowStock = true;
  if (params.scheduled) filter.scheduled = params.scheduled === 'true';
  return Object.keys(filter).length ? filter : null;
}

export function ProductListPage() {
  const { storeId, store, mode } = useWorkspace();
  const { search } = useLocation();
  const params = useMemo(() => readParams(search), [search]);
  const filter = useMemo(() => toFilter(params), [params]);
  const [{ data, fetching, error }, refetch] = useQuery({
    query: ProductListDocument,
    variables: { storeId, mode, filter, sort: params.sort || null, page: params.page, perPage: params.perPage },
  });

  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const toast = useToast();
  const items = data?.products.items ?? [];
  const categoryNames = useMemo(() => new Map(store.categories.map((c) => [c.slug, c.name])), [store.categories]);
  const meta = data?.products.meta;

  // A new page or filter starts with nothing selected; the editor's way back returns to this very list.
  useEffect(() => setSelected(new Set()), [params]);
  useEffect(() => rememberListPath(writeParams(params)), [params]);

  const update = (changes: Partial<ListParams>) => navigate(writeParams({ ...params, page: 1, ...changes }));

  const runBulk = async (action: BulkAction) => {
    const chosen = items.filter((p) => selected.has(p.id));
    setBusy(true);
    const outcome = await runBulkAction(storeId, mode, chosen, action);
    setBusy(false);
    toast.show({
      tone: outcome.failures.length ? 'warning' : 'success',
      message: outcome.summary,
      details: outcome.failures.length ? (
        <ul aria-label="Not changed">
          {outcome.failures.map((f) => (
            <li key={f.id}>
              {f.name}: {f.error.message}
            </li>
          ))}
        </ul>
      ) : undefined,
    });
    setSelected(new Set(outcome.failures.map((f) => f.id)));
    refetch({ requestPolicy: 'network-only' });
  };

  /** A column header that sorts the list by it (ascending first, then descending). */
  const sortHeader = (label: string, asc: ProductSort, desc: ProductSort, className?: string) => {
    const state = params.sort === asc ? 'ascending' : params.sort === desc ? 'descending' : undefined;
    return (
      <th scope="col" className={className} aria-sort={state}>
        <button type="button" className="sort-button" onClick={() => update({ sort: params.sort === asc ? desc : asc })}>
          {label}
          <span aria-hidden="true">{state === 'ascending' ? ' ▲' : state === 'descending' ? ' ▼' : ''}</span>
          <span className="visually-hidden">{state ? `, sorted ${state}` : ', sort by this column'}</span>
        </button>
      </th>
    );
  };

  const allSelected = items.length > 0 && items.every((p) => selected.has(p.id));
  const toggleAll = () => setSelected(allSelected ? new Set() : new Set(items.map((p) => p.id)));
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <>
      <PageTitle
        actions={
          <>
            <Link to={`import-export${search.toString() ? `?${search}` : ''}`} className="button button-secondary">
              Import or export
            </Link>
            <Link to="products/new" className="button button-primary">
              New product
            </Link>
          </>
        }
      >
        Products
      </PageTitle>
      {mode === 'test' ? <TestDataTools onChanged={() => refetch({ requestPolicy: 'network-only' })} /> : null}
      <Filters params={params} categories={store.categories} onChange={update} />

      <BulkBar count={selected.size} busy={busy} currency={store.currency} categories={store.categories} onRun={(action) => void runBulk(action)} />

      {error ? (
        <ErrorMessage error={toApiError(error)} title="The products could not be loaded.">
          <button type="button" onClick={() => refetch({ requestPolicy: 'network-only' })}>
            Try again
          </button>
        </ErrorMessage>
      ) : null}
      {fetching && !data ? <Loading label="Loading products…" /> : null}
      {data && items.length === 0 ? (
        filter ? (
          <EmptyState title="No products match these filters.">
            <button type="button" className="button-secondary" onClick={() => navigate('products')}>
              Clear the filters
            </button>
          </EmptyState>
        ) : (
          <EmptyState title={mode === 'test' ? 'The test catalog is empty.' : 'No products yet.'}>
            <p>
              <Link to="products/new">Create the first product</Link>
              {mode === 'test' ? ', or copy the live catalog above.' : '.'}
            </p>
          </EmptyState>
        )
      ) : null}
      {items.length > 0 ? (
        <div className="table-wrap">
          <table className="table table-cards" aria-busy={fetching}>
            <caption className="visually-hidden">Products of {store.name}</caption>
            <thead>
              <tr>
                <th scope="col" className="col-check">
                  <input type="checkbox" aria-label="Select all products on this page" checked={allSelected} onChange={toggleAll} />
                </th>
                <th scope="col">
                  <span className="visually-hidden">Image</span>
                </th>
                {sortHeader('Name', 'NAME_ASC', 'NAME_DESC')}
                <th scope="col">Status</th>
                {sortHeader('Price', 'PRICE_ASC', 'PRICE_DESC', 'num')}
                {sortHeader('Inventory', 'INVENTORY_QUANTITY_ASC', 'INVENTORY_QUANTITY_DESC', 'num')}
                <th scope="col">Categories</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {items.map((product) => (
                <ProductRow
                  key={product.id}
                  product={product}
                  categoryNames={categoryNames}
                  checked={selected.has(product.id)}
                  onToggle={() => toggle(product.id)}
                />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {meta && items.length > 0 ? <Pager meta={meta} onPage={(page) => navigate(writeParams({ ...params, page }))} /> : null}
    </>
  );
}

function ProductRow({
  product,
  categoryNames,
  checked,
  onToggle,
}: {
  product: ProductListItemFragment;
  categoryNames: Map<string, string>;
  checked: boolean;
  onToggle: () => void;
}) {
  const low = product.inventoryQuantity <= product.lowStockThreshold;
  const thumbnail = product.images[0];
  return (
    <tr className={checked ? 'row-selected' : undefined}>
      <td className="col-check">
        <input type="checkbox" aria-label={`Select ${product.name}`} checked={checked} onChange={onToggle} />
      </td>
      <td>
        {thumbnail ? <img className="thumb" src={thumbnail.url} alt="" width={40} height={40} loading="lazy" /> : <div className="thumb-empty" aria-hidden="true" />}
      </td>
      <td>
        <Link to={`products/${product.id}`}>{product.name}</Link>
        {product.tags.length ? <div className="muted small">{product.tags.join(', ')}</div> : null}
      </td>
      <td data-label="Status">
        <StatusBadge status={product.status} />
        {product.hasStagedChanges ? <StagedBadge /> : null}
        {product.publishAt ? <div className="muted small">Publishes {formatDateTime(product.publishAt)}</div> : null}
        {product.unpublishAt ? <div className="muted small">Unpublishes {formatDateTime(product.unpublishAt)}</div> : null}
      </td>
      <td className="num" data-label="Price">
        {formatMoney(product.price, product.currency)}
      </td>
      <td className="num" data-label="Inventory">
        {product.inventoryQuantity}
        {low ? (
          <>
            {' '}
            <Badge tone="amber">Low</Badge>
          </>
        ) : null}
      </td>
      <td data-label="Categories">{product.categorySlugs.map((slug) => categoryNames.get(slug) ?? slug).join(', ')}</td>
      <td data-label="Updated">{formatDateTime(product.updatedAt)}</td>
    </tr>
  );
}

export function StatusBadge({ status }: { status: string }) {
  const tone = status === 'active' ? 'green' : status === 'archived' ? 'grey' : 'blue';
  const label = status === 'active' ? 'Active' : status === 'archived' ? 'Archived' : 'Draft';
  return <Badge tone={tone}>{label}</Badge>;
}

function Filters({
  params,
  categories,
  onChange,
}: {
  params: ListParams;
  categories: { slug: string; name: string }[];
  onChange: (changes: Partial<ListParams>) => void;
}) {
  const [q, setQ] = useState(params.q);
  const [tags, setTags] = useState(params.tags);
  useEffect(() => setQ(params.q), [params.q]);
  useEffect(() => setTags(params.tags), [params.tags]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange({ q, tags });
  };
  return (
    <form className="filters" role="search" aria-label="Filter products" onSubmit={submit}>
      <div className="field">
        <label htmlFor="filter-search">Search</label>
        <input id="filter-search" type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder="Name, description, tag or SKU" />
      </div>
      <div className="field">
        <label htmlFor="filter-tags">Tags</label>
        <input id="filter-tags" value={tags} onChange={(e) => setTags(e.target.value)} placeholder="e.g. summer, sale" aria-describedby="filter-tags-hint" />
        <span id="filter-tags-hint" className="visually-hidden">
          Comma-separated; a product matches if it carries any of them.
        </span>
      </div>
      <div className="field">
        <label htmlFor="filter-category">Category</label>
        <select id="filter-category" value={params.category} onChange={(e) => onChange({ category: e.target.value, q, tags })}>
          <option value="">All categories</option>
          {categories.map((c) => (
            <option key={c.slug} value={c.slug}>
              {c.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-active">Status</label>
        <select id="filter-active" value={params.active} onChange={(e) => onChange({ active: e.target.value as ListParams['active'], q, tags })}>
          <option value="">Any status</option>
          <option value="true">Active (published)</option>
          <option value="false">Not active (draft or archived)</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-scheduled">Schedule</label>
        <select
          id="filter-scheduled"
          value={params.scheduled}
          onChange={(e) => onChange({ scheduled: e.target.value as ListParams['scheduled'], q, tags })}
        >
          <option value="">Scheduled or not</option>
          <option value="true">With a pending schedule</option>
          <option value="false">Without a schedule</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-sort">Sort by</label>
        <select id="filter-sort" value={params.sort} onChange={(e) => onChange({ sort: e.target.value as ListParams['sort'], q, tags })}>
          {SORTS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-per-page">Per page</label>
        <select id="filter-per-page" value={params.perPage} onChange={(e) => onChange({ perPage: Number(e.target.value), q, tags })}>
          {PER_PAGE.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </div>
      <div className="field field-check">
        <input id="filter-low-stock" type="checkbox" checked={params.lowStock} onChange={(e) => onChange({ lowStock: e.target.checked, q, tags })} />
        <label htmlFor="filter-low-stock">Low stock only</label>
      </div>
      <div className="filter-actions">
        <button type="submit">Apply</button>
        <button type="button" className="button-secondary" onClick={() => navigate('products')}>
          Reset
        </button>
      </div>
    </form>
  );
}

function Pager({
  meta,
  onPage,
}: {
  meta: { page: number; perPage: number; total: number; totalExact: boolean; totalPages: number; hasMore: boolean };
  onPage: (page: number) => void;
}) {
  const first = (meta.page - 1) * meta.perPage + 1;
  const last = first + Math.min(meta.perPage, Math.max(0, meta.total - first + 1)) - 1;
  const total = meta.totalExact ? String(meta.total) : `${meta.total}+`;
  const pages = meta.totalExact ? String(meta.totalPages) : `${meta.totalPages}+`;
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" className="button-secondary" disabled={meta.page <= 1} onClick={() => onPage(meta.page - 1)}>
        Previous page
      </button>
      <span>
        {first}–{Math.max(first, last)} of {total} · page {meta.page} of {pages}
      </span>
      <button type="button" className="button-secondary" disabled={!meta.hasMore} onClick={() => onPage(meta.page + 1)}>
        Next page
      </button>
    </nav>
  );
}
