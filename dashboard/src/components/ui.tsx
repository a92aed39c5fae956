import { type ReactNode, type Ref, useEffect, useId, useRef, useState } from 'react';
import type { ApiError } from '../api/client';

/** Small building blocks shared by the screens. */

export function PageTitle({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const text = ref.current?.textContent?.trim();
    document.title = text ? `${text} · Store dashboard` : 'Store dashboard';
  });
  useEffect(() => {
    // After client-side navigation, screen readers and keyboard users start at the new page's title.
    if (document.activeElement === document.body || document.activeElement?.closest('nav, .page-header')) ref.current?.focus();
  }, []);
  return (
    <div className="page-header">
      <h1 ref={ref} tabIndex={-1}>
        {children}
      </h1>
      {actions ? <div className="page-actions">{actions}</div> : null}
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="loading" role="status">
      <span className="spinner" aria-hidden="true" />
      {label}
    </p>
  );
}

/**
 * The fields a save refused, each by the name its form gives it, at the top of the form: "`what` was not saved".
 * Focusable, so a page can move the eye to it after a refused save; nothing when no field was refused.
 */
export function ErrorSummary({ what, items, ref }: { what: string; items: { field: string; label: string; message: string }[]; ref?: Ref<HTMLDivElement> }) {
  if (!items.length) return null;
  return (
    <div className="alert alert-error error-summary" role="alert" tabIndex={-1} ref={ref}>
      <p className="alert-title">{what} was not saved: correct the fields marked below.</p>
      <ul>
        {items.map((item) => (
          <li key={item.field}>
            <strong>{item.label}</strong>: {item.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function ErrorMessage({ error, title, children }: { error: ApiError | null | undefined; title?: string; children?: ReactNode }) {
  if (!error) return null;
  return (
    <div className="alert alert-error" role="alert">
      {title ? <p className="alert-title">{title}</p> : null}
      <p>{error.message}</p>
      {children}
    </div>
  );
}

export function Notice({ children, tone = 'success' }: { children: ReactNode; tone?: 'success' | 'info' | 'warning' }) {
  return (
    <div className={`alert alert-${tone}`} role="status">
      {children}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <p className="empty-title">{title}</p>
      {children}
    </div>
  );
}

/** A labelled form field with its hint and error, wired with aria-describedby and aria-invalid. */
export function Field({
  label,
  hint,
  error,
  children,
  className,
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  className?: string;
  children: (props: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }) => ReactNode;
}) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field-invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined })}
      {hint ? (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function FieldError({ message, id }: { message?: string; id?: string }) {
  if (!message) return null;
  return (
    <p className="field-error" id={id}>
      {message}
    </p>
  );
}

/** A button that asks "are you sure?" in place before it acts. */
export function ConfirmButton({
  children,
  confirmLabel,
  question,
  onConfirm,
  disabled,
  className = 'button-danger',
}: {
  children: ReactNode;
  confirmLabel: string;
  question: string;
  onConfirm: () => void | Promise<void>;
  disabled?: boolean;
  className?: string;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) confirmRef.current?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <button type="button" className={className} disabled={disabled} onClick={() => setAsking(true)}>
        {children}
      </button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label={question}>
      <span className="confirm-question">{question}</span>
      <button
        ref={confirmRef}
        type="button"
        className="button-danger"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          try {
            await onConfirm();
          } finally {
            setBusy(false);
            setAsking(false);
          }
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" className="button-secondary" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}

/** A secret shown once, with a copy button and a warning. */
export function SecretReveal({ label, secret, onDone }: { label: string; secret: string; onDone: () => void }) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  useEffect(() => {
    inputRef.current?.focus();
    inputRef.current?.select();
  }, []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('yes');
    } catch {
      inputRef.current?.select();
      setCopied('no');
    }
  };
  return (
    <section className="secret" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{label}</h2>
      <p className="secret-warning">
        <strong>Copy it now.</strong> It is shown only this once: the service keeps only a digest of it and cannot show it
        again.
      </p>
      <div className="secret-row">
        <label htmlFor={id} className="visually-hidden">
          {label}
        </label>
        <input id={id} ref={inputRef} className="secret-value" readOnly value={secret} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" onClick={copy}>
          Copy
        </button>
      </div>
      <p role="status" className="hint">
        {copied === 'yes' ? 'Copied to the clipboard.' : copied === 'no' ? 'Copying is not allowed here: the value is selected, press Ctrl+C.' : ''}
      </p>
      <button type="button" className="button-secondary" onClick={onDone}>
        I have stored it safely
      </button>
    </section>
  );
}

export function Badge({ tone, children }: { tone: 'green' | 'grey' | 'amber' | 'red' | 'blue'; children: ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}
