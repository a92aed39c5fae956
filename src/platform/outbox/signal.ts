/**
 * Wakes this process's background worker when a request has just committed
 * work for it (events to dispatch, a message to resend), so it does not wait
 * for its next poll. Other instances find the work on their own poll
 * (WORKER_POLL_MS). Nothing is lost if nobody listens: the work is in the database.
 */
type Listener = () => void;
const listeners = new Set<Listener>();

/** Called after a commit that left work for the worker. */
export function signalWorkPending(): void {
  for (const l of listeners) l();
}

/** Subscribes the worker; returns the unsubscribe function. */
export function onWorkPending(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
