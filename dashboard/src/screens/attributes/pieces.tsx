import { toApiError, type ApiError } from '../../api/client';
import { useToast, type ToastInput } from '../../components/toasts';
import { ConfirmButton, ErrorMessage, Loading, PageTitle } from '../../components/ui';
import { Link } from '../../lib/router';

/** What the attributes and product types screens share: row actions, ordered-list buttons, loading states. */

/** A row's Edit link and Delete button (which asks first, with `question`). */
export function RowActions({ name, to, question, onDelete }: { name: string; to: string; question: string; onDelete: () => Promise<void> }) {
  return (
    <span className="row-actions">
      <Link to={to} className="button button-secondary button-small">
        Edit<span className="visually-hidden"> {name}</span>
      </Link>
      <ConfirmButton confirmLabel="Delete" className="button-danger button-small" question={question} onConfirm={onDelete}>
        Delete<span className="visually-hidden"> {name}</span>
      </ConfirmButton>
    </span>
  );
}

/** The list with one item moved by `by` places. */
export function moved<T>(list: T[], index: number, by: number): T[] {
  const next = [...list];
  const [item] = next.splice(index, 1);
  next.splice(index + by, 0, item!);
  return next;
}

/** Move up, Move down and Remove for an item of an ordered list, each named with the item. */
export function OrderButtons({ name, index, count, onMove, onRemove }: { name: string; index: number; count: number; onMove: (by: number) => void; onRemove: () => void }) {
  return (
    <span className="row-actions">
      <button type="button" className="button-secondary button-small" disabled={index === 0} onClick={() => onMove(-1)} aria-label={`Move ${name} up`}>
        ↑
      </button>
      <button type="button" className="button-secondary button-small" disabled={index === count - 1} onClick={() => onMove(1)} aria-label={`Move ${name} down`}>
        ↓
      </button>
      <button type="button" className="button-danger button-small" onClick={onRemove} aria-label={`Remove ${name}`}>
        Remove
      </button>
    </span>
  );
}

/** Loading, or the failure to load with a Try again button. */
export function LoadState({ error, title, loading, onRetry }: { error?: ApiError; title: string; loading: string; onRetry: () => void }) {
  if (!error) return <Loading label={loading} />;
  return (
    <ErrorMessage error={error} title={title}>
      <button type="button" onClick={onRetry}>
        Try again
      </button>
    </ErrorMessage>
  );
}

/** A list screen's title with its New button. */
export function ListTitle({ title, newTo, newLabel }: { title: string; newTo: string; newLabel: string }) {
  return (
    <PageTitle
      actions={
        <Link to={newTo} className="button button-primary">
          {newLabel}
        </Link>
      }
    >
      {title}
    </PageTitle>
  );
}

/** Deletes an item of a list, says so and reloads the list; a refusal is told in `refusal`'s words. */
export function useDelete<T extends { name: string }>(run: (item: T) => Promise<unknown>, reload: () => Promise<void>, refusal: (error: ApiError) => string) {
  const toast = useToast();
  return async (item: T) => {
    try {
      await run(item);
      toast.show({ message: `Deleted “${item.name}”.` });
      await reload();
    } catch (caught) {
      toast.show({ tone: 'error', message: `“${item.name}” was not deleted.`, details: refusal(toApiError(caught)) });
    }
  };
}

/** The toast of a refused save: how many fields need correcting, or why when no field is named. */
export function notSaved(what: string, count: number, why: string): ToastInput {
  return {
    tone: 'error',
    message: count ? `${what} was not saved: ${count === 1 ? 'one field needs' : `${count} fields need`} correcting.` : `${what} was not saved.`,
    details: count ? undefined : why,
  };
}
