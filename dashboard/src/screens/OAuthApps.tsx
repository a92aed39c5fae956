import { type FormEvent, useRef, useState } from 'react';
import { useQuery } from 'urql';
import { mutate, toApiError, type ApiError } from '../api/client';
import { Badge, ConfirmButton, EmptyState, ErrorMessage, Field, Loading, PageTitle, SecretReveal } from '../components/ui';
import { useToast } from '../components/toasts';
import {
  ActivateOAuthAppDocument,
  CreateOAuthAppDocument,
  OAuthAppsDocument,
  OAuthGrantsDocument,
  RevokeOAuthGrantDocument,
  RotateOAuthAppSecretDocument,
  SuspendOAuthAppDocument,
  type OAuthAppFieldsFragment,
} from '../generated/graphql';
import { formatDateTime } from '../lib/format';
import { useLeaveGuard } from '../lib/router';
import { useWorkspace } from '../session';
import './OAuthApps.css';

/**
 * OAuth apps (docs/oauth.md): the apps the signed-in user registered (client id, the secret once, rotate, suspend
 * and activate), and the store's grants: which apps the store has let in, and a way to disconnect them.
 */

/** What each scope lets an app do, in the words of the consent page. */
export const SCOPES: { value: string; label: string; help: string }[] = [
  { value: 'public:read', label: 'Storefront', help: "See the store's products that are for sale, as a shop window shows them (in stock or not, no inventory counts)." },
  { value: 'products:read', label: 'Read products', help: 'See every product, drafts and archived ones included, with inventory, variants and search engine listing.' },
  { value: 'products:write', label: 'Change products', help: 'Create, change, publish, unpublish and delete products, with their variants and images. Includes reading them.' },
  { value: 'payments:read', label: 'Payment countries', help: 'See the countries where payments are supported, with their currencies.' },
];

const scopeLabel = (scope: string) => SCOPES.find((s) => s.value === scope)?.label ?? scope;

export function OAuthAppsPage() {
  const { can } = useWorkspace();
  const [{ data, fetching, error }, refetch] = useQuery({ query: OAuthAppsDocument, variables: {} });
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const apps = data?.oauthApps ?? [];

  return (
    <>
      <PageTitle>OAuth apps</PageTitle>
      <p className="muted">
        Apps you build or run that ask a store for access: the store's owner or staff approve what the app asks for, and the app then works with the
        store's products without a password or an API key.
      </p>
      {secret ? <SecretReveal label={secret.label} secret={secret.value} onDone={() => setSecret(null)} /> : null}
      <RegisterForm
        onCreated={(app, value) => {
          setSecret({ label: `Client secret of “${app.name}”`, value });
          reload();
        }}
      />
      <section aria-labelledby="apps-title">
        <h2 id="apps-title">Your apps</h2>
        {error ? (
          <ErrorMessage error={toApiError(error)} title="The apps could not be loaded.">
            <button type="button" onClick={reload}>
              Try again
            </button>
          </ErrorMessage>
        ) : null}
        {fetching && !data ? <Loading label="Loading apps…" /> : null}
        {data && apps.length === 0 ? <EmptyState title="You have not registered an app yet." /> : null}
        {apps.length > 0 ? (
          <ul className="category-list" aria-label="Your apps">
            {apps.map((app) => (
              <AppItem
                key={app.id}
                app={app}
                onRotated={(value) => {
                  setSecret({ label: `New client secret of “${app.name}”`, value });
                  reload();
                }}
                onChanged={reload}
              />
            ))}
          </ul>
        ) : null}
      </section>
      {can('manage_oauth_apps') ? <Grants /> : null}
    </>
  );
}

function AppItem({ app, onRotated, onChanged }: { app: OAuthAppFieldsFragment; onRotated: (secret: string) => void; onChanged: () => void }) {
  const toast = useToast();
  const [error, setError] = useState<ApiError | null>(null);
  const suspended = app.status === 'suspended';

  const run = async (action: () => Promise<unknown>, done: string) => {
    setError(null);
    try {
      await action();
      toast.show({ message: done });
      onChanged();
    } catch (caught) {
      setError(toApiError(caught));
    }
  };
  const rotate = async () => {
    setError(null);
    try {
      const data = await mutate(RotateOAuthAppSecretDocument, { id: app.id });
      onRotated(data.rotateOAuthAppSecret.clientSecret);
    } catch (caught) {
      setError(toApiError(caught));
    }
  };

  return (
    <li className="panel member">
      <h3>
        {app.name} {suspended ? <Badge tone="red">Suspended</Badge> : <Badge tone="green">Active</Badge>}
      </h3>
      <dl className="facts">
        <dt>Client id</dt>
        <dd>
          <code className="wrap-anywhere">{app.clientId}</code>
        </dd>
        <dt>Redirect addresses</dt>
        <dd>
          <ul className="plain-list">
            {app.redirectUris.map((uri) => (
              <li key={uri} className="wrap-anywhere">
                {uri}
              </li>
            ))}
          </ul>
        </dd>
        <dt>May ask for</dt>
        <dd>{app.allowedScopes.map(scopeLabel).join(', ')}</dd>
        <dt>Registered</dt>
        <dd>{formatDateTime(app.createdAt)}</dd>
      </dl>
      {suspended ? <p className="muted">While suspended, the app's access is refused and it cannot get new access.</p> : null}
      <div className="button-row">
        <ConfirmButton
          className="button-secondary"
          confirmLabel="Rotate now"
          question={`Make a new secret for “${app.name}”? The current one stops working at once.`}
          onConfirm={rotate}
        >
          Rotate secret<span className="visually-hidden"> of {app.name}</span>
        </ConfirmButton>
        {suspended ? (
          <button type="button" onClick={() => void run(() => mutate(ActivateOAuthAppDocument, { id: app.id }), `“${app.name}” is active again.`)}>
            Activate<span className="visually-hidden"> {app.name}</span>
          </button>
        ) : (
          <ConfirmButton
            confirmLabel="Suspend now"
            question={`Suspend “${app.name}”? Every store's access through it stops until you activate it.`}
            onConfirm={() => run(() => mutate(SuspendOAuthAppDocument, { id: app.id }), `Suspended “${app.name}”.`)}
          >
            Suspend<span className="visually-hidden"> {app.name}</span>
          </ConfirmButton>
        )}
      </div>
      <ErrorMessage error={error} title={`The change to “${app.name}” was not made.`} />
    </li>
  );
}

/** Field errors of the form by its fields: redirect addresses named by their line. */
function registerErrors(error: ApiError | null) {
  if (!error) return { other: null as ApiError | null };
  const redirect = Object.entries(error.fields)
    .filter(([field]) => field.startsWith('redirectUris'))
    .map(([field, message]) => {
      const line = /^redirectUris\.(\d+)/.exec(field);
      return line ? `Line ${Number(line[1]) + 1}: ${message}` : message;
    });
  const scopes = Object.entries(error.fields).find(([field]) => field.startsWith('allowedScopes'))?.[1];
  const name = error.fields.name;
  const explained = Boolean(name || scopes || redirect.length);
  return { name, scopes, redirect: redirect.length ? redirect.join(' ') : undefined, other: explained ? null : error };
}

function RegisterForm({ onCreated }: { onCreated: (app: OAuthAppFieldsFragment, secret: string) => void }) {
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [uris, setUris] = useState('');
  const [scopes, setScopes] = useState<string[]>(['products:read']);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const errorToast = useRef<number | null>(null);
  const errors = registerErrors(error);
  useLeaveGuard(open && (name.trim() !== '' || uris.trim() !== ''));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const redirectUris = uris
        .split('\n')
        .map((u) => u.trim())
        .filter(Boolean);
      const data = await mutate(CreateOAuthAppDocument, { input: { name: name.trim(), redirectUris, allowedScopes: scopes } });
      if (errorToast.current !== null) toast.dismiss(errorToast.current);
      toast.show({ message: `Registered “${data.createOAuthApp.app.name}”.` });
      setName('');
      setUris('');
      setOpen(false);
      onCreated(data.createOAuthApp.app, data.createOAuthApp.clientSecret);
    } catch (caught) {
      const apiError = toApiError(caught);
      setError(apiError);
      const count = Object.keys(apiError.fields).length;
      if (errorToast.current !== null) toast.dismiss(errorToast.current);
      if (count > 0) errorToast.current = toast.show({ message: `The app was not registered: ${count === 1 ? 'one field needs' : `${count} fields need`} correcting.`, tone: 'error' });
      nameRef.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  if (!open) {
    return (
      <p>
        <button type="button" className="button-primary" onClick={() => setOpen(true)}>
          Register an app
        </button>
      </p>
    );
  }
  return (
    <section className="panel" aria-labelledby="register-app-title">
      <h2 id="register-app-title">Register an app</h2>
      <form onSubmit={submit} noValidate aria-labelledby="register-app-title">
        <Field label="App name" hint="Shown to the people asked to approve it." error={errors.name}>
          {(p) => <input {...p} ref={nameRef} value={name} onChange={(e) => setName(e.target.value)} maxLength={255} required />}
        </Field>
        <Field
          label="Redirect addresses"
          hint="One per line: where the app receives the answer after someone approves it. https addresses (http only for this computer), at most 10."
          error={errors.redirect}
        >
          {(p) => <textarea {...p} rows={3} value={uris} onChange={(e) => setUris(e.target.value)} spellCheck={false} placeholder="https://app.example/callback" />}
        </Field>
        <fieldset className="field checkbox-group">
          <legend>What the app may ask for</legend>
          <div className="checkbox-list checkbox-list-column">
            {SCOPES.map((s) => (
              <div key={s.value}>
                <label className="checkbox">
                  <input
                    type="checkbox"
                    aria-describedby={`scope-help-${s.value.replace(':', '-')}`}
                    checked={scopes.includes(s.value)}
                    onChange={() => setScopes((current) => (current.includes(s.value) ? current.filter((x) => x !== s.value) : [...current, s.value]))}
                  />
                  {s.label}
                </label>
                <p className="hint" id={`scope-help-${s.value.replace(':', '-')}`}>
                  {s.help}
                </p>
              </div>
            ))}
          </div>
          {errors.scopes ? <p className="field-error">{errors.scopes}</p> : null}
        </fieldset>
        {errors.other ? <ErrorMessage error={errors.other} title="The app was not registered." /> : null}
        <div className="button-row">
          <button type="submit" className="button-primary" disabled={busy}>
            {busy ? 'Registering…' : 'Register app'}
          </button>
          <button type="button" className="button-secondary" onClick={() => setOpen(false)}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}

/** The store's grants: the apps let in, by whom and for what, with a way to disconnect each. */
function Grants() {
  const { storeId, store } = useWorkspace();
  const toast = useToast();
  const [{ data, fetching, error }, refetch] = useQuery({ query: OAuthGrantsDocument, variables: { storeId } });
  const [revokeError, setRevokeError] = useState<ApiError | null>(null);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const grants = data?.oauthGrants ?? [];

  const revoke = async (id: string, appName: string) => {
    setRevokeError(null);
    try {
      await mutate(RevokeOAuthGrantDocument, { storeId, id });
      toast.show({ message: `Disconnected “${appName}” from ${store.name}.` });
      reload();
    } catch (caught) {
      setRevokeError(toApiError(caught));
    }
  };

  return (
    <section aria-labelledby="grants-title">
      <h2 id="grants-title">Apps connected to {store.name}</h2>
      {error ? <ErrorMessage error={toApiError(error)} title="The connected apps could not be loaded." /> : null}
      {fetching && !data ? <Loading label="Loading connected apps…" /> : null}
      {data && grants.length === 0 ? <EmptyState title="No app has been given access to this store." /> : null}
      <ErrorMessage error={revokeError} title="The app was not disconnected." />
      {grants.length > 0 ? (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Connected apps">
          <table className="table">
            <caption className="visually-hidden">Apps connected to {store.name}</caption>
            <thead>
              <tr>
                <th scope="col">App</th>
                <th scope="col">Catalog</th>
                <th scope="col">Access</th>
                <th scope="col">Approved</th>
                <th scope="col">Status</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {grants.map((g) => (
                <tr key={g.id}>
                  <td>{g.app.name}</td>
                  <td>{g.mode === 'test' ? 'Test' : 'Live'}</td>
                  <td className="small">{g.scopes.map(scopeLabel).join(', ')}</td>
                  <td className="small">
                    {formatDateTime(g.createdAt)}
                    <div className="muted">by {g.grantedBy}</div>
                  </td>
                  <td>{g.revokedAt ? <Badge tone="grey">Disconnected {formatDateTime(g.revokedAt)}</Badge> : <Badge tone="green">Connected</Badge>}</td>
                  <td>
                    {g.revokedAt ? (
                      <span className="muted small">—</span>
                    ) : (
                      <ConfirmButton
                        className="button-danger button-small"
                        confirmLabel="Disconnect now"
                        question={`Disconnect “${g.app.name}”? Its access to ${store.name} stops at once.`}
                        onConfirm={() => revoke(g.id, g.app.name)}
                      >
                        Disconnect<span className="visually-hidden"> {g.app.name}</span>
                      </ConfirmButton>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
