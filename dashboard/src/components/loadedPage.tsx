import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { toApiError, type ApiError } from '../api/client';
import { Link } from '../lib/router';
import { useWorkspace } from '../session';
import { ErrorMessage, Loading, PageTitle } from './ui';

/** What a page that edits one record says while it loads it, and when it cannot. */
export interface LoadedPageWords {
  /** "product", "collection": as in "Loading the product…", "Product not found". */
  noun: string;
  /** Where "Back to the …" goes (a dashboard path) and what it says ("the products"). */
  back: { to: string; label: string };
}

/**
 * An editor page of one record: `fetch` reads it (again on "Try again", and through `reload` after a save
 * elsewhere); while it loads the page says so, a record that is not in this catalog says so with a way back, and
 * any other failure offers to try again. With `id` null (a new record) `render` gets null at once.
 */
export function LoadedPage<T>({ id, fetch, words, render }: { id: string | null; fetch: (id: string) => Promise<T>; words: LoadedPageWords; render: (record: T | null, reload: () => Promise<T | undefined>) => ReactNode }) {
  const { storeId, mode } = useWorkspace();
  // The caller's read, as of its latest render: the page reads again when the id or the workspace changes.
  const read = useRef(fetch);
  read.current = fetch;
  const [state, setState] = useState<{ record?: T; error?: ApiError; loading: boolean }>({ loading: id !== null });

  const load = useCallback(async () => {
    if (!id) return undefined;
    setState((s) => ({ ...s, loading: true, error: undefined }));
    try {
      const record = await read.current(id);
      setState({ record, loading: false });
      return record;
    } catch (caught) {
      setState({ error: toApiError(caught), loading: false });
      return undefined;
    }
  }, [id, storeId, mode]);

  useEffect(() => {
    void load();
  }, [load]);

  const title = words.noun.charAt(0).toUpperCase() + words.noun.slice(1);
  if (!id) return <>{render(null, async () => undefined)}</>;
  if (state.loading && !state.record) {
    return (
      <>
        <PageTitle>{title}</PageTitle>
        <Loading label={`Loading the ${words.noun}…`} />
      </>
    );
  }
  if (state.error || !state.record) {
    const notFound = state.error?.code === 'not_found';
    return (
      <>
        <PageTitle>{notFound ? `${title} not found` : title}</PageTitle>
        {notFound ? (
          <p>
            There is no such {words.noun} in the {mode} catalog of this store. <Link to={words.back.to}>Back to {words.back.label}</Link>.
          </p>
        ) : (
          <ErrorMessage error={state.error} title={`The ${words.noun} could not be loaded.`}>
            <button type="button" onClick={() => void load()}>
              Try again
            </button>
          </ErrorMessage>
        )}
      </>
    );
  }
  return <>{render(state.record, load)}</>;
}
