import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useQuery } from 'urql';
import { mutate, toApiError, type ApiError } from '../api/client';
import { Field, Loading } from '../components/ui';
import { useToast } from '../components/toasts';
import { AcceptStoreInvitationDocument, SignOutDocument, StoreInvitationPreviewDocument } from '../generated/graphql';
import { formatDateTime } from '../lib/format';
import { labelsOf } from '../lib/permissions';
import { href, navigate } from '../lib/router';
import { useSession } from '../session';

/**
 * /dashboard/invite/<token>: the page an invitation link opens, signed in or not. Someone without an account
 * chooses a name and a password and joins; someone with an account signs in as it (and comes back here) and joins.
 */

const MIN_PASSWORD = 8;

/** Ends the session of this browser; one already gone is as good. */
async function signOutQuietly(): Promise<void> {
  try {
    await mutate(SignOutDocument, {});
  } catch {
    // The session may already be gone: what follows is the same.
  }
}

function linkProblem(error: ApiError): string {
  switch (error.code) {
    case 'not_found':
      return 'This invitation link is not valid. Check that you copied the whole link, or ask the store owner for a new one.';
    case 'too_many_login_attempts':
      return 'Too many attempts from this network. Wait a few minutes and open the link again.';
    default:
      return error.message.endsWith('.') ? error.message : `${error.message}.`;
  }
}

export function InvitePage({ token, signedInAs }: { token: string; signedInAs: { email: string; name: string } | null }) {
  const [{ data, fetching, error }] = useQuery({ query: StoreInvitationPreviewDocument, variables: { token } });
  const [joined, setJoined] = useState<{ storeName: string; email: string; accountCreated: boolean } | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const preview = data?.storeInvitation;
  useEffect(() => {
    document.title = `${preview ? `Join ${preview.storeName}` : 'Invitation'} · Store dashboard`;
  }, [preview]);
  useEffect(() => {
    if (joined) headingRef.current?.focus();
  }, [joined]);

  return (
    <main id="main" className="signin-page">
      <div className="signin-card">
        {fetching && !data ? (
          <>
            <h1>Invitation</h1>
            <Loading label="Opening the invitation…" />
          </>
        ) : null}
        {error ? (
          <>
            <h1>Invitation</h1>
            <div className="alert alert-error" role="alert">
              <p>{linkProblem(toApiError(error))}</p>
            </div>
          </>
        ) : null}
        {joined ? (
          <Joined heading={headingRef} joined={joined} signedIn={signedInAs !== null} />
        ) : preview ? (
          <>
            <h1>Join {preview.storeName}</h1>
            <p>
              You are invited to work on <strong>{preview.storeName}</strong> as <strong>{preview.email}</strong>, with these permissions: {labelsOf(preview.permissions)}.
            </p>
            <p className="hint">The invitation works once, until {formatDateTime(preview.expiresAt)}.</p>
            {preview.accountExists ? (
              <ExistingAccount token={token} email={preview.email} signedInAs={signedInAs} onJoined={setJoined} />
            ) : (
              <NewAccount token={token} email={preview.email} onJoined={setJoined} />
            )}
          </>
        ) : null}
      </div>
    </main>
  );
}

function Joined({
  heading,
  joined,
  signedIn,
}: {
  heading: React.RefObject<HTMLHeadingElement | null>;
  joined: { storeName: string; email: string; accountCreated: boolean };
  signedIn: boolean;
}) {
  const { signedOut } = useSession();
  const toSignIn = async () => {
    if (signedIn) await signOutQuietly();
    signedOut(`Sign in as ${joined.email} to start working on ${joined.storeName}.`);
    navigate('sign-in', { replace: true, force: true });
  };
  return (
    <>
      <h1 ref={heading} tabIndex={-1}>
        Welcome to {joined.storeName}
      </h1>
      <p role="status">
        {joined.accountCreated
          ? `Your account ${joined.email} is ready and you are now a member of ${joined.storeName}.`
          : `You are now a member of ${joined.storeName}.`}
      </p>
      {joined.accountCreated ? (
        <button type="button" className="button-primary button-block" onClick={() => void toSignIn()}>
          Sign in
        </button>
      ) : (
        <a className="button button-primary button-block" href={href('products')}>
          Go to the dashboard
        </a>
      )}
    </>
  );
}

function NewAccount({ token, email, onJoined }: { token: string; email: string; onJoined: (joined: { storeName: string; email: string; accountCreated: boolean }) => void }) {
  const toast = useToast();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [local, setLocal] = useState<Record<string, string>>({});
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const fields = { ...(error?.fields ?? {}), ...local };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const problems: Record<string, string> = {};
    if (!name.trim()) problems.name = 'Enter your name.';
    if (password.length < MIN_PASSWORD) problems.password = `Choose a password of at least ${MIN_PASSWORD} characters.`;
    else if (password !== repeat) problems.repeat = 'The two passwords differ: type the same password twice.';
    setLocal(problems);
    if (Object.keys(problems).length > 0) {
      nameRef.current?.form?.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    setBusy(true);
    try {
      const data = await mutate(AcceptStoreInvitationDocument, { token, name: name.trim(), password });
      toast.show({ message: `Joined ${data.acceptStoreInvitation.storeName}.` });
      onJoined(data.acceptStoreInvitation);
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Create your account">
      <h2>Create your account</h2>
      <div className="field">
        <label htmlFor="invite-email">Email</label>
        <input id="invite-email" type="email" value={email} readOnly autoComplete="username" />
      </div>
      <Field label="Your name" error={fields.name} hint="Shown to the store's team and in the history of changes.">
        {(p) => <input {...p} ref={nameRef} value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" maxLength={255} required />}
      </Field>
      <Field label="Password" error={fields.password} hint={`At least ${MIN_PASSWORD} characters.`}>
        {(p) => <input {...p} type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="new-password" required />}
      </Field>
      <Field label="Password again" error={fields.repeat}>
        {(p) => <input {...p} type="password" value={repeat} onChange={(e) => setRepeat(e.target.value)} autoComplete="new-password" required />}
      </Field>
      {error && Object.keys(error.fields).length === 0 ? (
        <div className="alert alert-error" role="alert">
          <p>{linkProblem(error)}</p>
        </div>
      ) : null}
      <button type="submit" className="button-primary button-block" disabled={busy}>
        {busy ? 'Joining…' : 'Create account and join'}
      </button>
    </form>
  );
}

function ExistingAccount({
  token,
  email,
  signedInAs,
  onJoined,
}: {
  token: string;
  email: string;
  signedInAs: { email: string; name: string } | null;
  onJoined: (joined: { storeName: string; email: string; accountCreated: boolean }) => void;
}) {
  const { reload, signedOut } = useSession();
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const here = `${href(`invite/${token}`)}`;

  if (!signedInAs) {
    return (
      <>
        <p>You already have an account with this email: sign in to accept.</p>
        <a className="button button-primary button-block" href={`${href('sign-in')}?return_to=${encodeURIComponent(here)}`}>
          Sign in as {email}
        </a>
      </>
    );
  }
  if (signedInAs.email.toLowerCase() !== email.toLowerCase()) {
    const switchAccount = async () => {
      await signOutQuietly();
      signedOut();
    };
    return (
      <>
        <p>
          You are signed in as {signedInAs.email}, but this invitation is for {email}. Sign out, then sign in as {email} to accept it.
        </p>
        <button type="button" className="button-primary button-block" onClick={() => void switchAccount()}>
          Sign out
        </button>
      </>
    );
  }
  const accept = async () => {
    setBusy(true);
    setError(null);
    try {
      const data = await mutate(AcceptStoreInvitationDocument, { token });
      await reload();
      onJoined(data.acceptStoreInvitation);
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      {error ? (
        <div className="alert alert-error" role="alert">
          <p>{linkProblem(error)}</p>
        </div>
      ) : null}
      <button type="button" className="button-primary button-block" disabled={busy} onClick={() => void accept()}>
        {busy ? 'Joining…' : `Accept and join as ${signedInAs.name}`}
      </button>
    </>
  );
}
