import { type ReactNode, useCallback, useEffect, useId, useState } from 'react';
import { mutate, query, toApiError, type ApiError } from '../../api/client';
import { Badge, ConfirmButton, Field } from '../../components/ui';
import { useToast } from '../../components/toasts';
import {
  DiscardStagedProductDocument,
  PublishStagedProductDocument,
  ScheduleStagedPublishDocument,
  StagedProductDocument,
  type ProductDetailFragment,
  type StagedProductQuery,
  type StagedPublishScope,
} from '../../generated/graphql';
import { formatDateTime, formatMoney, fromDateTimeLocal } from '../../lib/format';
import { useWorkspace } from '../../session';
import { fieldName, HIDDEN_FIELDS, valueInWords } from '../history/changeWords';
import './StagedChanges.css';

/**
 * Staged changes in the product editor: edits kept beside the live product until they are published (now, prices
 * only, or at a set time) or discarded. The live product is what shoppers see meanwhile (docs/staged-changes.md).
 */

/** Where a save of the editor goes: the live product, the staged changes, or both while changes are staged. */
export type SaveTarget = 'live' | 'staged' | 'both';

/** The write arguments of a target. */
export const targetArgs = (target: SaveTarget) => (target === 'staged' ? { staged: true } : target === 'both' ? { applyTo: 'BOTH' as const } : {});

export const isPending = (error: ApiError) => error.code === 'staged_changes_pending';

export const NOT_STAGEABLE = 'cannot be staged: save it live with “Save changes”';

/** A refused staged write in the merchant's words: each field that is never staged says so and how to save it. */
export function stagedErrorInWords(error: ApiError): ApiError {
  if (error.code !== 'not_stageable') return error;
  const fields = Object.fromEntries(Object.keys(error.fields).map((field) => [field, NOT_STAGEABLE]));
  return { ...error, fields, message: 'Some of these changes cannot be staged: stock, status and schedules are saved live only.' };
}

/** The badge of a product with staged changes (the list, the editor's header). */
export function StagedBadge() {
  return (
    <span title="Changes are staged: they are not live until published.">
      <Badge tone="amber">Staged</Badge>
    </span>
  );
}

/** "Stage changes": saves the edits as staged changes instead of live. */
export function StageButton({ onStage, disabled }: { onStage: () => void; disabled: boolean }) {
  const id = useId();
  return (
    <>
      <button type="button" className="button-secondary" disabled={disabled} onClick={onStage} aria-describedby={id}>
        Stage changes
      </button>
      <span id={id} className="visually-hidden">
        Keeps the edits of name, description, price, categories, tags, variant titles, options and prices, and the search listing aside: they go live when you publish them.
      </span>
    </>
  );
}

/** A live save refused because changes are staged: what happened and the ways on. */
export function StagedPendingAlert({ onBoth, onStage, busy }: { onBoth: () => void; onStage: () => void; busy: boolean }) {
  return (
    <div className="alert alert-warning" role="alert">
      <p className="alert-title">This product has staged changes, so your edits were not saved.</p>
      <p>
        Saving them live now would be overwritten when the staged changes are published. Save them to both the live product and
        the staged changes, add them to the staged changes, or publish or discard the staged changes first (below).
      </p>
      <div className="button-row">
        <button type="button" disabled={busy} onClick={onBoth}>
          Save live and in the staged changes
        </button>
        <button type="button" className="button-secondary" disabled={busy} onClick={onStage}>
          Add to the staged changes
        </button>
      </div>
    </div>
  );
}

type Staged = StagedProductQuery['stagedProduct'];

const VARIANT_FIELDS: Record<string, string> = {
  title: 'title',
  options: 'options',
  price: 'price',
  compare_at_price: 'compare-at price',
  barcode: 'barcode',
  weight: 'weight',
  image_id: 'image',
  attributes: 'attributes',
  position: 'position',
};

const isPriceField = (field: string) => /^(prices?(\.|$))|^variants\.[^.]+\.(price|compare_at_price|prices)(\.|$)/.test(field);

/** One staged difference in words: the field as the editor names it, before → after (money as money). */
function describe(field: string, staged: Staged, currency: string): { label: string; value: (v: unknown) => ReactNode } {
  const money = (code: string) => (v: unknown) => (v === null || v === undefined || v === '' ? valueInWords('price', v) : formatMoney(String(v), code));
  const variant = /^variants\.([^.]+)\.(.+)$/.exec(field);
  if (variant) {
    const [, id, rest] = variant;
    const found = staged.product.variants.find((v) => v.id === id);
    const name = found ? found.title || found.sku : 'a variant since removed';
    const [head, tail] = rest!.split(/\.(.+)/);
    const part = head === 'prices' && tail ? `price in ${tail}` : (VARIANT_FIELDS[head!] ?? head!.replace(/_/g, ' '));
    // A variant without a price of its own sells at the product's.
    const ownPrice = (v: unknown) => (v === null || v === undefined || v === '' ? <span className="muted">the product’s price</span> : formatMoney(String(v), currency));
    const value = head === 'price' ? ownPrice : head === 'compare_at_price' ? money(currency) : head === 'prices' && tail ? money(tail) : (v: unknown) => valueInWords(head!, v);
    return { label: `Variant “${name}”: ${part}`, value };
  }
  if (field === 'price') return { label: `Price (${currency})`, value: money(currency) };
  if (field === 'images') return { label: 'Images', value: (v: unknown) => (Array.isArray(v) && v.length ? <ImagesInWords images={v as StagedImage[]} /> : valueInWords('images', v)) };
  const price = /^prices\.(\w+)$/.exec(field);
  if (price) return { label: `Price in ${price[1]}`, value: money(price[1]!) };
  const head = field.split('.')[0]!;
  return { label: fieldName(field), value: (v: unknown) => valueInWords(head, v) };
}

interface StagedImage {
  url?: unknown;
  alt?: unknown;
}

/** Images in their order, each as a thumbnail with its alt text (an alt text is what a staged image edit changes). */
function ImagesInWords({ images }: { images: StagedImage[] }) {
  return (
    <span className="staged-images">
      {images.map((image, index) => {
        const alt = typeof image.alt === 'string' && image.alt ? image.alt : '';
        return typeof image.url === 'string' ? (
          <span key={`${image.url}-${index}`} className="staged-image">
            <img src={image.url} alt="" width={36} height={36} loading="lazy" />
            <span>{alt ? `“${alt}”` : <span className="muted">no alt text</span>}</span>
          </span>
        ) : null;
      })}
    </span>
  );
}

function ChangeList({ staged, currency }: { staged: Staged; currency: string }) {
  const visible = staged.changes.filter((c) => !HIDDEN_FIELDS.has(c.field));
  if (visible.length === 0) return <p className="muted">The staged version matches the live product.</p>;
  return (
    <dl className="change-list">
      {visible.map((c) => {
        const { label, value } = describe(c.field, staged, currency);
        return (
          <div key={c.field} className="change-row">
            <dt>{label}</dt>
            <dd>
              {value(c.previous)} <span aria-hidden="true">→</span>
              <span className="visually-hidden"> staged as </span> {value(c.next)}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

/** An action's refusal in the merchant's words. */
function failureWords(error: ApiError): string {
  if (error.code === 'precondition_failed') return 'The product changed since you opened it. Reload the page and try again.';
  if (error.code === 'no_staged_changes') return 'There are no staged changes any more: someone published or discarded them.';
  if (error.code === 'slug_taken') return 'The staged URL slug is now used by another product: stage another slug in the search engine listing.';
  return error.message;
}

/**
 * The staged changes of a product, shown when it has some: the difference in words and the actions (publish all,
 * publish prices only, schedule, discard). `dirty`: the editor holds unsaved edits, so the live product must not
 * change under them. `onChanged` reloads the editor after an action changed the product.
 */
export function StagedPanel({ product, dirty, onChanged }: { product: ProductDetailFragment; dirty: boolean; onChanged: () => Promise<void> }) {
  const { storeId, mode, store } = useWorkspace();
  const toast = useToast();
  const [staged, setStaged] = useState<Staged | null>(null);
  const [loadError, setLoadError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const [when, setWhen] = useState('');
  const [scope, setScope] = useState<StagedPublishScope>('ALL');
  const [whenError, setWhenError] = useState<string | undefined>();

  const load = useCallback(async () => {
    try {
      setStaged((await query(StagedProductDocument, { storeId, mode, id: product.id })).stagedProduct);
      setLoadError(null);
    } catch (caught) {
      setLoadError(toApiError(caught));
    }
  }, [storeId, mode, product.id]);

  // A new version (a staged save, a publish) may change what is staged.
  useEffect(() => {
    if (product.hasStagedChanges) void load();
    else setStaged(null);
  }, [load, product.hasStagedChanges, product.version]);

  if (!product.hasStagedChanges) return null;

  const run = async (action: () => Promise<unknown>, done: string, failed: string) => {
    setBusy(true);
    try {
      await action();
      toast.show({ message: done });
      await onChanged();
      return true;
    } catch (caught) {
      const error = toApiError(caught);
      if (error.fields.publishAt) {
        setWhenError(error.fields.publishAt.replace(/ \(it is now .*\)$/, ''));
        toast.show({ tone: 'error', message: `${failed}: correct the time.` });
      } else toast.show({ tone: 'error', message: `${failed}.`, details: failureWords(error) });
      return false;
    } finally {
      setBusy(false);
    }
  };

  const base = { storeId, mode, id: product.id, expectedVersion: product.version };
  const publish = (scopeOf: StagedPublishScope) =>
    run(
      () => mutate(PublishStagedProductDocument, { ...base, scope: scopeOf }),
      scopeOf === 'PRICES' ? 'Published the staged prices: the other staged changes are still waiting.' : 'Published the staged changes: they are live now.',
      scopeOf === 'PRICES' ? 'The staged prices were not published' : 'The staged changes were not published',
    );
  const discard = async () => {
    await run(() => mutate(DiscardStagedProductDocument, base), 'Discarded the staged changes: the live product is unchanged.', 'The staged changes were not discarded');
  };
  const schedule = async () => {
    setWhenError(undefined);
    const at = fromDateTimeLocal(when);
    if (!at) {
      setWhenError(when ? 'is not a valid date and time' : 'choose a date and time');
      return;
    }
    const ok = await run(
      () => mutate(ScheduleStagedPublishDocument, { ...base, scope, publishAt: at }),
      `Scheduled: ${scope === 'PRICES' ? 'the staged prices publish' : 'the staged changes publish'} on ${formatDateTime(at)}.`,
      'The publish was not scheduled',
    );
    if (ok) setWhen('');
  };
  const unschedule = () => run(() => mutate(ScheduleStagedPublishDocument, { ...base, publishAt: null }), 'The scheduled publish is cancelled; the changes stay staged.', 'The schedule was not cancelled');

  const hasPrices = staged?.changes.some((c) => isPriceField(c.field)) ?? false;
  const locked = busy || dirty;
  return (
    <section className="panel staged-panel" aria-labelledby="section-staged">
      <h2 id="section-staged">
        Staged changes <span className="muted staged-note">not live yet</span>
      </h2>
      <p className="muted small">
        Shoppers see the live product until these are published.
        {staged?.updatedAt ? ` Last staged ${formatDateTime(staged.updatedAt)}${staged.updatedBy ? ` by ${staged.updatedBy}` : ''}.` : ''}
      </p>
      {loadError ? (
        <div className="alert alert-error" role="alert">
          <p>The staged changes could not be loaded. {loadError.message}</p>
          <button type="button" onClick={() => void load()}>
            Try again
          </button>
        </div>
      ) : null}
      {staged ? <ChangeList staged={staged} currency={store.currency} /> : null}
      {staged?.publishAt ? (
        <p className="staged-schedule" role="status">
          Scheduled to publish {staged.publishScope === 'PRICES' ? 'the prices only' : 'every staged change'} on <strong>{formatDateTime(staged.publishAt)}</strong>.
        </p>
      ) : null}
      {dirty ? <p className="hint">Save or undo your edits first: publishing and discarding change the product you are editing.</p> : null}
      <div className="button-row staged-actions">
        <button type="button" disabled={locked || !staged} onClick={() => void publish('ALL')}>
          Publish all staged changes
        </button>
        {hasPrices ? (
          <button type="button" className="button-secondary" disabled={locked} onClick={() => void publish('PRICES')}>
            Publish prices only
          </button>
        ) : null}
        <ConfirmButton disabled={locked} confirmLabel="Discard" question="Discard every staged change? The live product stays as it is." onConfirm={discard}>
          Discard staged changes
        </ConfirmButton>
      </div>
      <fieldset className="staged-scheduler">
        <legend>Schedule the publish</legend>
        <p className="muted small">Times are in your time zone ({Intl.DateTimeFormat().resolvedOptions().timeZone}).</p>
        <div className="staged-schedule-row">
          <Field label="Publish at" error={whenError}>
            {(p) => <input {...p} type="datetime-local" value={when} onChange={(e) => setWhen(e.target.value)} />}
          </Field>
          <Field label="What to publish">
            {(p) => (
              <select {...p} value={scope} onChange={(e) => setScope(e.target.value as StagedPublishScope)}>
                <option value="ALL">Every staged change</option>
                <option value="PRICES">Prices only</option>
              </select>
            )}
          </Field>
        </div>
        <div className="button-row">
          <button type="button" className="button-secondary" disabled={locked} onClick={() => void schedule()}>
            {staged?.publishAt ? 'Change the schedule' : 'Schedule publish'}
          </button>
          {staged?.publishAt ? (
            <button type="button" className="button-secondary" disabled={locked} onClick={() => void unschedule()}>
              Cancel the schedule
            </button>
          ) : null}
        </div>
      </fieldset>
    </section>
  );
}
