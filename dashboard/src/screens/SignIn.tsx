import { type FormEvent, useEffect, useId, useState } from 'react';
import { mutate, setCsrfToken, toApiError, type ApiError } from '../api/client';
import { SignInDocument } from '../generated/graphql';
import { useSession } from '../session';

export function SignInPage({ notice }: { notice?: string }) {
  const { reload } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const errorId = useId();
  useEffect(() => {
    document.title = 'Sign in · Store dashboard';
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const data = await mutate(SignInDocument, { email: email.trim(), password });
      setCsrfToken(data.signIn.csrfToken);
      const returnTo = safeReturnTo();
      if (returnTo) {
        // A page of the service that sent the user to sign in first (e.g. an app's authorization request).
        window.location.assign(returnTo);
        return;
      }
      // The session as every later page load reads it (the cookie is set now).
      await reload();
    } catch (caught) {
      setError(toApiError(caught));
      setBusy(false);
    }
  };

  return (
    <main id="main" className="signin-page">
      <div className="signin-card">
        <h1>Sign in to your store</h1>
        {notice && !error ? (
          <p className="alert alert-info" role="status">
            {notice}
          </p>
        ) : null}
        <form onSubmit={submit} noValidate aria-describedby={error ? errorId : undefined}>
          <div className="field">
            <label htmlFor="signin-email">Email</label>
            <input
              id="signin-email"
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              aria-invalid={error ? true : undefined}
            />
          </div>
          <div className="field">
            <label htmlFor="signin-password">Password</label>
            <input
              id="signin-password"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              aria-invalid={error ? true : undefined}
            />
          </div>
          {error ? (
            <div className="alert alert-error" role="alert" id={errorId}>
              <p>{signInMessage(error)}</p>
            </div>
          ) : null}
          <button type="submit" className="button-primary button-block" disabled={busy || !email || !password}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
      </div>
    </main>
  );
}

function signInMessage(error: ApiError): string {
  switch (error.code) {
    case 'invalid_credentials':
      return 'The email or password is not right.';
    case 'too_many_login_attempts': {
      const wait = error.retryAfter ? ` Try again in ${formatWait(error.retryAfter)}.` : ' Try again later.';
      return `Too many failed sign-in attempts.${wait}`;
    }
    default:
      return error.message;
  }
}

function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? 'a minute' : `${minutes} minutes`;
}

/** The return_to parameter of /dashboard/sign-in, when it names a path of this origin. */
export function safeReturnTo(): string | null {
  const value = new URLSearchParams(window.location.search).get('return_to');
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  try {
    const url = new URL(value, window.location.origin);
    return url.origin === window.location.origin ? url.pathname + url.search + url.hash : null;
  } catch {
    return null;
  }
}
