import { type DragEvent, type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useQuery } from 'urql';
import { query, toApiError, uploadMutation, type ApiError } from '../api/client';
import { Badge, EmptyState, ErrorMessage, Field, Loading, PageTitle } from '../components/ui';
import { useToast } from '../components/toasts';
import {
  ImportCollectionsDocument,
  ProductImportDocument,
  ProductImportsDocument,
  StartProductImportDocument,
  type ImportCollectionsMutation,
  type ProductImportErrorPolicy,
  type ProductImportFieldsFragment,
  type ProductImportQuery,
} from '../generated/graphql';
import { csvFile, downloadFromService, saveFile } from '../lib/download';
import { formatDateTime } from '../lib/format';
import { useLeaveGuard, useLocation } from '../lib/router';
import { useWorkspace } from '../session';
import './ImportExport.css';

/**
 * Import and export of the catalog (docs/import-export.md): a product file is stored and imported by the worker,
 * followed here with a progress bar; its row errors are told in words and downloadable as a CSV; exports are
 * files of the catalog filtered as the product list is; collections go in and out as well.
 */

const POLL_MS = 800;
const ERROR_PAGE = 1000;

/** The file's columns as a merchant reads them. */
const COLUMN_LABELS: Record<string, string> = {
  id: 'Product id',
  sku: 'SKU',
  name: 'Name',
  description: 'Description',
  price: 'Price',
  inventory_quantity: 'Inventory',
  low_stock_threshold: 'Low stock threshold',
  status: 'Status',
  category_slugs: 'Categories',
  tags: 'Tags',
  product_type: 'Product type',
  attributes: 'Attributes',
  options: 'Options',
  variants: 'Variants',
  seo_title: 'Search engine title',
  seo_description: 'Search engine description',
  seo_slug: 'URL handle',
  seo_canonical_url: 'Canonical URL',
  seo_og_image_url: 'Social image URL',
  seo_noindex: 'Hide from search engines',
  image_urls: 'Image URLs',
  file: 'File',
  '(row)': 'The whole row',
};

/** "variants.1.sku" → "Variants, item 2, sku"; an unknown column keeps the file's own name. */
export function columnLabel(field: string): string {
  const [head, ...rest] = field.split('.');
  const label = COLUMN_LABELS[head!] ?? `Column “${head}”`;
  if (rest.length === 0) return label;
  return [label, ...rest.map((part) => (/^\d+$/.test(part) ? `item ${Number(part) + 1}` : part))].join(', ');
}

const STATUS: Record<string, { label: string; tone: 'green' | 'grey' | 'amber' | 'red' | 'blue' }> = {
  queued: { label: 'Waiting to start', tone: 'grey' },
  running: { label: 'Importing', tone: 'blue' },
  succeeded: { label: 'Finished', tone: 'green' },
  failed: { label: 'Nothing imported', tone: 'red' },
};

const finished = (job: { status: string }) => job.status === 'succeeded' || job.status === 'failed';

/** What an import did, in one sentence. */
function outcome(job: ProductImportFieldsFragment): string {
  const counts = `${job.created} created, ${job.updated} updated, ${job.unchanged} unchanged, ${job.rejected} with problems`;
  if (job.status === 'failed') {
    if (job.failure?.code === 'rows_rejected') {
      return `Nothing was imported: ${job.rejected} of ${job.rowsTotal} rows have problems, and the file was to be imported only if every row was right. Fix the rows below and import the file again.`;
    }
    return `Nothing was imported: ${job.failure?.message ?? 'the import stopped'}${job.failure?.row ? ` (row ${job.failure.row})` : ''}.`;
  }
  if (job.status !== 'succeeded') return `${job.rowsProcessed} of ${job.rowsTotal} rows handled so far.`;
  if (job.dryRun) return `Check finished, nothing was saved. The import would give: ${counts}.`;
  return `Import finished: ${counts}.`;
}

export function ImportExportPage() {
  const { storeId, mode, can } = useWorkspace();
  const [current, setCurrent] = useState<string | null>(null);
  const [{ data, fetching, error }, refetch] = useQuery({ query: ProductImportsDocument, variables: { storeId }, pause: !can('manage_products') });
  const reload = useCallback(() => refetch({ requestPolicy: 'network-only' }), [refetch]);
  const imports = data?.productImports ?? [];

  return (
    <>
      <PageTitle>Import and export</PageTitle>
      <p className="muted">
        Products go in and out as CSV or JSON Lines files with the same columns: an export imports as it stands. You are working on the {mode} catalog.
      </p>
      <ExportSection />
      {can('manage_products') ? (
        <>
          <ImportForm
            onStarted={(id) => {
              setCurrent(id);
              reload();
            }}
          />
          {current ? <ImportProgress key={current} importId={current} onFinished={reload} /> : null}
          <section aria-labelledby="imports-title">
            <h2 id="imports-title">Recent imports</h2>
            {error ? (
              <ErrorMessage error={toApiError(error)} title="The imports could not be loaded.">
                <button type="button" onClick={reload}>
                  Try again
                </button>
              </ErrorMessage>
            ) : null}
            {fetching && !data ? <Loading label="Loading imports…" /> : null}
            {data && imports.length === 0 ? <EmptyState title="No imports yet." /> : null}
            {imports.length > 0 ? (
              <div className="table-wrap">
                <table className="table">
                  <caption className="visually-hidden">Recent imports, newest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">File</th>
                      <th scope="col">Started</th>
                      <th scope="col">Result</th>
                      <th scope="col">Rows</th>
                      <th scope="col">Details</th>
                    </tr>
                  </thead>
                  <tbody>
                    {imports.map((job) => {
                      const status = STATUS[job.status] ?? { label: job.status, tone: 'grey' as const };
                      return (
                        <tr key={job.id}>
                          <td>
                            {job.fileName}
                            <div className="muted small">
                              {job.dryRun ? 'Check only' : job.errorPolicy === 'reject_failed_rows' ? 'Good rows imported' : 'All or nothing'} · by {job.requestedBy}
                            </div>
                          </td>
                          <td className="small">{formatDateTime(job.createdAt)}</td>
                          <td>
                            <Badge tone={job.status === 'succeeded' && job.rejected > 0 ? 'amber' : status.tone}>
                              {job.status === 'succeeded' && job.dryRun ? 'Checked' : status.label}
                            </Badge>
                          </td>
                          <td className="small">
                            {job.created} created, {job.updated} updated, {job.unchanged} unchanged, {job.rejected} with problems
                          </td>
                          <td>
                            <button type="button" className="button-secondary button-small" onClick={() => setCurrent(job.id)} aria-pressed={current === job.id}>
                              Show<span className="visually-hidden"> the import of {job.fileName} started {formatDateTime(job.createdAt)}</span>
                            </button>
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
            ) : null}
          </section>
          <CollectionsSection />
        </>
      ) : (
        <p>Importing needs the permission to manage products: ask the store's owner.</p>
      )}
    </>
  );
}

/** The file's problem in the merchant's words (a file refused before it was queued). */
function fileProblem(error: ApiError): string | undefined {
  if (error.code === 'payload_too_large') return 'The file is too large.';
  if (error.code === 'unsupported_media_type') return 'This kind of file cannot be imported: choose a .csv or .jsonl file.';
  return error.fields.file;
}

function ImportForm({ onStarted }: { onStarted: (id: string) => void }) {
  const { storeId } = useWorkspace();
  const toast = useToast();
  const [file, setFile] = useState<File | null>(null);
  const [policy, setPolicy] = useState<ProductImportErrorPolicy>('reject_everything');
  const [dryRun, setDryRun] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  // A chosen file not yet sent is an unsaved edit.
  useLeaveGuard(file !== null && !busy);

  const choose = (chosen: File | null) => {
    setError(null);
    setFile(chosen);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped) choose(dropped);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      setError({ code: 'validation_failed', message: 'Choose a file first.', fields: { file: 'Choose a CSV or JSON Lines file to import.' } });
      inputRef.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const data = await uploadMutation(StartProductImportDocument, { storeId, file, dryRun, errorPolicy: policy }, 'file', file);
      toast.show({ message: `${dryRun ? 'Checking' : 'Importing'} “${file.name}”.`, tone: 'info' });
      setFile(null);
      if (inputRef.current) inputRef.current.value = '';
      onStarted(data.startProductImport.id);
    } catch (caught) {
      const apiError = toApiError(caught);
      setError(apiError);
      if (fileProblem(apiError)) inputRef.current?.focus();
    } finally {
      setBusy(false);
    }
  };
  const problem = error ? fileProblem(error) : undefined;

  return (
    <section className="panel" aria-labelledby="import-title">
      <h2 id="import-title">Import products</h2>
      <form onSubmit={submit} noValidate aria-labelledby="import-title">
        <div
          className={`dropzone${dragging ? ' dropzone-active' : ''}`}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          data-testid="import-dropzone"
        >
          <p>Drop a CSV or JSON Lines file here, or choose it:</p>
          <Field label="Product file" hint={file ? `Chosen: ${file.name} (${formatBytes(file.size)})` : 'A .csv or .jsonl file, up to 50 MB.'} error={problem}>
            {(p) => (
              <input
                {...p}
                ref={inputRef}
                type="file"
                accept=".csv,.jsonl,.ndjson,text/csv,application/x-ndjson"
                onChange={(e) => choose(e.target.files?.[0] ?? null)}
              />
            )}
          </Field>
        </div>
        <fieldset className="field checkbox-group">
          <legend>When some rows have problems</legend>
          <label className="checkbox">
            <input type="radio" name="error-policy" checked={policy === 'reject_everything'} onChange={() => setPolicy('reject_everything')} />
            Import nothing, so I can fix the file and import it whole
          </label>
          <label className="checkbox">
            <input type="radio" name="error-policy" checked={policy === 'reject_failed_rows'} onChange={() => setPolicy('reject_failed_rows')} />
            Import the rows that are right and leave out the others
          </label>
        </fieldset>
        <label className="checkbox">
          <input type="checkbox" checked={dryRun} onChange={(e) => setDryRun(e.target.checked)} />
          Only check the file: save nothing, show what the import would do
        </label>
        {error && !problem ? <ErrorMessage error={error} title="The import did not start." /> : null}
        <div className="button-row">
          <button type="submit" className="button-primary" disabled={busy}>
            {busy ? 'Sending the file…' : dryRun ? 'Check the file' : 'Start import'}
          </button>
        </div>
      </form>
    </section>
  );
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

type ImportDetail = ProductImportQuery['productImport'];

/** One import followed live: a progress bar while it runs, then what it did and its row errors. */
function ImportProgress({ importId, onFinished }: { importId: string; onFinished: () => void }) {
  const { storeId } = useWorkspace();
  const toast = useToast();
  const [job, setJob] = useState<ImportDetail | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [downloading, setDownloading] = useState(false);
  const done = job ? finished(job) : false;
  const finishedRef = useRef(onFinished);
  finishedRef.current = onFinished;

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const data = await query(ProductImportDocument, { storeId, id: importId, errorOffset: 0, errorLimit: 100 });
        if (stopped) return;
        setJob(data.productImport);
        setError(null);
        if (finished(data.productImport)) {
          finishedRef.current();
          return;
        }
      } catch (caught) {
        if (stopped) return;
        setError(toApiError(caught));
      }
      timer = setTimeout(() => void poll(), POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [storeId, importId]);

  const downloadReport = async () => {
    if (!job) return;
    setDownloading(true);
    try {
      const rows: (string | number)[][] = [];
      for (let offset = 0; offset < Math.min(job.errorCount, 1000); offset += ERROR_PAGE) {
        const data = await query(ProductImportDocument, { storeId, id: importId, errorOffset: offset, errorLimit: ERROR_PAGE });
        for (const e of data.productImport.rowErrors) rows.push([e.row, e.field, columnLabel(e.field), e.message]);
      }
      const name = `${job.fileName.replace(/\.[^.]+$/, '')}-errors.csv`;
      saveFile(csvFile(['row', 'column', 'column_name', 'problem'], rows), name);
      toast.show({ message: `Downloaded the error report “${name}”.` });
    } catch (caught) {
      toast.show({ message: 'The error report could not be downloaded.', details: toApiError(caught).message, tone: 'error' });
    } finally {
      setDownloading(false);
    }
  };

  const headingRef = useRef<HTMLHeadingElement>(null);
  const shownOnce = useRef(false);
  useEffect(() => {
    // The import just started (or chosen from the list) is where the eye should go.
    if (!job || shownOnce.current) return;
    shownOnce.current = true;
    headingRef.current?.scrollIntoView({ block: 'start' });
    headingRef.current?.focus({ preventScroll: true });
  }, [job]);

  if (error && !job) return <ErrorMessage error={error} title="The import could not be loaded." />;
  if (!job) return <Loading label="Loading the import…" />;
  const total = Math.max(job.rowsTotal, 1);
  const percent = done ? 100 : Math.round((job.rowsProcessed / total) * 100);
  const status = STATUS[job.status] ?? { label: job.status, tone: 'grey' as const };
  const shown = job.rowErrors;

  return (
    <section className="panel import-progress" aria-labelledby="import-progress-title">
      <h2 id="import-progress-title" ref={headingRef} tabIndex={-1}>
        {job.dryRun ? 'Check of' : 'Import of'} “{job.fileName}”
      </h2>
      <p>
        <Badge tone={job.status === 'succeeded' && job.rejected > 0 ? 'amber' : status.tone}>{job.status === 'succeeded' && job.dryRun ? 'Checked' : status.label}</Badge>{' '}
        <span className="muted small">started {formatDateTime(job.createdAt)}</span>
      </p>
      <progress className="import-bar" aria-label={`Progress of ${job.fileName}`} max={100} value={percent} aria-valuetext={`${job.rowsProcessed} of ${job.rowsTotal} rows`}>
        {percent}%
      </progress>
      <p className="small muted">
        {job.rowsProcessed} of {job.rowsTotal} rows
      </p>
      <dl className="facts import-counts">
        <dt>Created</dt>
        <dd>{job.created}</dd>
        <dt>Updated</dt>
        <dd>{job.updated}</dd>
        <dt>Unchanged</dt>
        <dd>{job.unchanged}</dd>
        <dt>With problems</dt>
        <dd>{job.rejected}</dd>
      </dl>
      <p role="status" className="import-outcome">
        {done ? outcome(job) : ''}
      </p>
      {job.warnings.length > 0 ? (
        <ul className="small muted">
          {job.warnings.map((w) => (
            <li key={`${w.row}-${w.field}`}>
              {columnLabel(w.field)}: {w.message}
            </li>
          ))}
        </ul>
      ) : null}
      {done && job.errorCount > 0 ? (
        <>
          <h3>Rows with problems</h3>
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Problems in the file">
            <table className="table">
              <caption className="visually-hidden">Problems in the file, by row</caption>
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  <th scope="col">Column</th>
                  <th scope="col">Problem</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((e, i) => (
                  <tr key={`${e.row}-${e.field}-${i}`}>
                    <td>{e.row}</td>
                    <td>{columnLabel(e.field)}</td>
                    <td>{e.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {job.errorCount > shown.length ? (
            <p className="small muted">
              Showing the first {shown.length} of {job.errorCount} problems{job.errorCount > 1000 ? ' (the report keeps the first 1,000)' : ''}.
            </p>
          ) : null}
          <div className="button-row">
            <button type="button" onClick={() => void downloadReport()} disabled={downloading}>
              {downloading ? 'Preparing…' : 'Download the error report (CSV)'}
            </button>
          </div>
        </>
      ) : null}
      <ErrorMessage error={error} title="The progress could not be read; trying again." />
    </section>
  );
}

/** The export's filters: those of the product list when it links here (the same query parameters). */
function useListFilters() {
  const { search } = useLocation();
  return {
    q: search.get('q') ?? '',
    category: search.get('category') ?? '',
    tags: search.get('tags') ?? '',
    active: search.get('active') === 'true' || search.get('active') === 'false' ? (search.get('active') as 'true' | 'false') : '',
    lowStock: search.get('lowStock') === 'true',
    scheduled: search.get('scheduled') === 'true' || search.get('scheduled') === 'false' ? (search.get('scheduled') as 'true' | 'false') : '',
  };
}

function ExportSection() {
  const { storeId, store } = useWorkspace();
  const toast = useToast();
  const initial = useListFilters();
  const [format, setFormat] = useState<'csv' | 'jsonl'>('csv');
  const [q, setQ] = useState(initial.q);
  const [category, setCategory] = useState(initial.category);
  const [tags, setTags] = useState(initial.tags);
  const [active, setActive] = useState(initial.active);
  const [lowStock, setLowStock] = useState(initial.lowStock);
  const [scheduled] = useState(initial.scheduled);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const params = new URLSearchParams({ format });
    if (q.trim()) params.set('search', q.trim());
    if (category) params.set('category', category);
    if (tags.trim()) params.set('tags', tags.split(',').map((t) => t.trim()).filter(Boolean).join(','));
    if (active) params.set('is_active', active);
    if (lowStock) params.set('low_stock', 'true');
    if (scheduled) params.set('scheduled', scheduled);
    try {
      const name = await downloadFromService(`/api/v1/merchant/stores/${encodeURIComponent(storeId)}/products/export?${params}`, `products.${format}`);
      toast.show({ message: `Downloaded “${name}”.` });
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel" aria-labelledby="export-title">
      <h2 id="export-title">Export products</h2>
      <p className="muted">The products matching these filters, as the product list shows them. Leave them empty for the whole catalog.</p>
      <form onSubmit={submit} noValidate aria-labelledby="export-title">
        <div className="grid-3">
          <Field label="Search">{(p) => <input {...p} type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder="Name, description, tag or SKU" />}</Field>
          <Field label="Category">
            {(p) => (
              <select {...p} value={category} onChange={(e) => setCategory(e.target.value)}>
                <option value="">All categories</option>
                {store.categories.map((c) => (
                  <option key={c.id} value={c.slug}>
                    {c.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Tags" hint="Separated by commas: products with any of them.">
            {(p) => <input {...p} value={tags} onChange={(e) => setTags(e.target.value)} />}
          </Field>
          <Field label="Status">
            {(p) => (
              <select {...p} value={active} onChange={(e) => setActive(e.target.value as '' | 'true' | 'false')}>
                <option value="">Any status</option>
                <option value="true">For sale</option>
                <option value="false">Not for sale</option>
              </select>
            )}
          </Field>
          <Field label="File type">
            {(p) => (
              <select {...p} value={format} onChange={(e) => setFormat(e.target.value as 'csv' | 'jsonl')}>
                <option value="csv">CSV (spreadsheets)</option>
                <option value="jsonl">JSON Lines</option>
              </select>
            )}
          </Field>
        </div>
        <label className="checkbox">
          <input type="checkbox" checked={lowStock} onChange={(e) => setLowStock(e.target.checked)} />
          Only products low in stock
        </label>
        {scheduled ? <p className="hint">Also filtered as the list was: {scheduled === 'true' ? 'scheduled products only' : 'products without a schedule'}.</p> : null}
        <ErrorMessage error={error} title="The export could not be downloaded." />
        <div className="button-row">
          <button type="submit" className="button-primary" disabled={busy}>
            {busy ? 'Preparing the file…' : 'Download export'}
          </button>
        </div>
      </form>
    </section>
  );
}

/** Collections: an export to download, and an import that runs at once (each collection on its own). */
function CollectionsSection() {
  const { storeId } = useWorkspace();
  const toast = useToast();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [summary, setSummary] = useState<ImportCollectionsMutation['importCollections'] | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  const exportCollections = async () => {
    setError(null);
    try {
      const name = await downloadFromService(`/api/v1/merchant/stores/${encodeURIComponent(storeId)}/collections/export?format=csv`, 'collections.csv');
      toast.show({ message: `Downloaded “${name}”.` });
    } catch (caught) {
      setError(toApiError(caught));
    }
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      setError({ code: 'validation_failed', message: 'Choose a file first.', fields: { file: 'Choose a CSV or JSON Lines file of collections.' } });
      inputRef.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    setSummary(null);
    try {
      const data = await uploadMutation(ImportCollectionsDocument, { storeId, file }, 'file', file);
      setSummary(data.importCollections);
      setFile(null);
      if (inputRef.current) inputRef.current.value = '';
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };
  const problem = error ? fileProblem(error) : undefined;

  return (
    <section className="panel" aria-labelledby="collections-transfer-title">
      <h2 id="collections-transfer-title">Collections</h2>
      <div className="button-row">
        <button type="button" className="button-secondary" onClick={() => void exportCollections()}>
          Download the collections (CSV)
        </button>
      </div>
      <form onSubmit={submit} noValidate aria-label="Import collections">
        <Field label="Collections file" hint="A .csv or .jsonl file as the export writes it; each collection is saved on its own." error={problem}>
          {(p) => <input {...p} ref={inputRef} type="file" accept=".csv,.jsonl,.ndjson" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />}
        </Field>
        {error && !problem ? <ErrorMessage error={error} title="The collections were not imported." /> : null}
        <div className="button-row">
          <button type="submit" disabled={busy}>
            {busy ? 'Importing…' : 'Import collections'}
          </button>
        </div>
      </form>
      {summary ? (
        <div role="status">
          <p>
            {summary.rows} collections read: {summary.created} created, {summary.updated} updated, {summary.unchanged} unchanged, {summary.rejected} with problems.
          </p>
          {summary.errors.length > 0 ? (
            <ul>
              {summary.errors.map((e, i) => (
                <li key={i}>
                  Row {e.row}, {e.field}: {e.message}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
