import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';

/**
 * Notices where the eye is: toasts in a fixed corner (the bottom of the screen on a phone), announced to
 * screen readers (status for news, alert for a failure). A toast may carry one action (Undo, Reload); it goes
 * away by itself after a while unless the pointer or the focus is on it, or with its close button. The
 * provider sits above the routes, so a toast outlives the page that raised it (a delete that ends on the list).
 */

export type ToastTone = 'success' | 'info' | 'warning' | 'error';

export interface ToastInput {
  tone?: ToastTone;
  message: ReactNode;
  /** Further lines under the message (e.g. what failed, one per item). */
  details?: ReactNode;
  action?: { label: string; onAction: () => void };
  /** Milliseconds before it goes by itself; 0 keeps it until closed. Errors stay by default. */
  duration?: number;
  /**
   * Toasts of one group replace each other: the outcome of a form's latest save replaces that of the one before
   * (a "Saved." takes the place of the refusal it answers).
   */
  group?: string;
}

interface Toast extends ToastInput {
  id: number;
}

interface ToastApi {
  show: (toast: ToastInput) => number;
  dismiss: (id: number) => void;
}

const ToastContext = createContext<ToastApi | null>(null);

let nextId = 0;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  const show = useCallback((toast: ToastInput) => {
    const id = ++nextId;
    // The newest on top; at most four at once (the oldest go); no two of one group.
    const replaces = (earlier: Toast) => toast.group !== undefined && earlier.group === toast.group;
    setToasts((list) => [{ ...toast, id }, ...list.filter((earlier) => !replaces(earlier))].slice(0, 4));
    return id;
  }, []);
  const api = useMemo(() => ({ show, dismiss }), [show, dismiss]);
  return (
    <ToastContext.Provider value={api}>
      {children}
      <section className="toasts" aria-label="Notifications">
        {toasts.map((t) => (
          <ToastView key={t.id} toast={t} onClose={() => dismiss(t.id)} />
        ))}
      </section>
    </ToastContext.Provider>
  );
}

function ToastView({ toast, onClose }: { toast: Toast; onClose: () => void }) {
  const tone = toast.tone ?? 'success';
  const duration = toast.duration ?? (tone === 'error' || toast.details ? 0 : 8000);
  const [held, setHeld] = useState(false);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    if (!duration || held) return undefined;
    const timer = setTimeout(() => closeRef.current(), duration);
    return () => clearTimeout(timer);
  }, [duration, held]);
  return (
    <div
      className={`toast toast-${tone}`}
      role={tone === 'error' ? 'alert' : 'status'}
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
    >
      <div className="toast-body">
        <p className="toast-message">{toast.message}</p>
        {toast.details ? <div className="toast-details">{toast.details}</div> : null}
      </div>
      <div className="toast-actions">
        {toast.action ? (
          <button
            type="button"
            className="button-secondary button-small"
            onClick={() => {
              toast.action!.onAction();
              onClose();
            }}
          >
            {toast.action.label}
          </button>
        ) : null}
        <button type="button" className="toast-close" onClick={onClose} aria-label="Close the notification">
          ×
        </button>
      </div>
    </div>
  );
}

/** Shows a toast: `toast.show({ message })`; outside the provider (the sign-in page) it does nothing. */
export function useToast(): ToastApi {
  return useContext(ToastContext) ?? { show: () => 0, dismiss: () => undefined };
}
