import { useEffect, useState } from 'react';
import { useQuery } from 'urql';
import { mutate, toApiError, type ApiError } from '../api/client';
import { ConfirmButton, ErrorMessage } from '../components/ui';
import { CopyLiveProductsToTestDocument, DeleteTestDataDocument, TestCatalogJobsDocument } from '../generated/graphql';
import { formatDateTime } from '../lib/format';
import { useWorkspace } from '../session';

/** Sandbox tools shown in test mode: fill the test catalog from the live one, or empty it. */
export function TestDataTools({ onChanged }: { onChanged: () => void }) {
  const { storeId } = useWorkspace();
  const [{ data }, refetch] = useQuery({ query: TestCatalogJobsDocument, variables: { storeId } });
  const [error, setError] = useState<ApiError | null>(null);
  const latest = data?.testCatalogJobs[0];
  const running = latest && (latest.status === 'queued' || latest.status === 'running');

  useEffect(() => {
    if (!running) return;
    const timer = window.setTimeout(() => refetch({ requestPolicy: 'network-only' }), 1000);
    return () => window.clearTimeout(timer);
  }, [running, latest, refetch]);
  const [wasRunning, setWasRunning] = useState(false);
  useEffect(() => {
    if (running) setWasRunning(true);
    else if (wasRunning) {
      setWasRunning(false);
      onChanged();
    }
  }, [running, wasRunning, onChanged]);

  const start = async (kind: 'copy' | 'delete') => {
    setError(null);
    try {
      if (kind === 'copy') await mutate(CopyLiveProductsToTestDocument, { storeId });
      else await mutate(DeleteTestDataDocument, { storeId });
      refetch({ requestPolicy: 'network-only' });
    } catch (caught) {
      setError(toApiError(caught));
    }
  };

  return (
    <section className="panel sandbox" aria-labelledby="sandbox-title">
      <h2 id="sandbox-title">Test data</h2>
      <p className="muted">Fill the test catalog with copies of the live products, or empty it. The live catalog is never changed.</p>
      <div className="button-row">
        <button type="button" className="button-secondary" disabled={!!running} onClick={() => void start('copy')}>
          Copy live products to test
        </button>
        <ConfirmButton confirmLabel="Delete test data" question="Delete every test product?" onConfirm={() => start('delete')} disabled={!!running}>
          Delete test data
        </ConfirmButton>
      </div>
      {latest ? (
        <p role="status" className="small">
          Last job: {latest.kind === 'copy_live' ? 'copy of live products' : 'deletion of test data'}, {latest.status}
          {latest.total ? ` (${latest.done} of ${latest.total}${latest.skipped ? `, ${latest.skipped} skipped` : ''})` : ''}
          {latest.finishedAt ? `, finished ${formatDateTime(latest.finishedAt)}` : ''}
          {latest.error ? ` — ${latest.error}` : ''}
        </p>
      ) : null}
      <ErrorMessage error={error} />
    </section>
  );
}
