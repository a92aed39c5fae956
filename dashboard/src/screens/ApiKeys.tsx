import { type FormEvent, useState } from 'react';
import { useQuery } from 'urql';
import { mutate, toApiError, type ApiError } from '../api/client';
import { Badge, ConfirmButton, EmptyState, ErrorMessage, Field, Loading, PageTitle, SecretReveal } from '../components/ui';
import { useToast } from '../components/toasts';
import { ApiKeysDocument, CreateApiKeyDocument, RevokeApiKeyDocument, RollApiKeyDocument, type ApiKeyFieldsFragment, type ApiKeyType } from '../generated/graphql';
import { formatDateTime, fromDateTimeLocal } from '../lib/format';
import { useWorkspace } from '../session';

const SCOPES: { value: string; label: string }[] = [
  { value: 'public:read', label: 'public:read — active products as a storefront sees them' },
  { value: 'products:read', label: 'products:read — every product, with inventory, variants and SEO' },
  { value: 'products:write', label: 'products:write — create, change, publish and delete products' },
  { value: 'payments:read', label: 'payments:read — countries where payments are supported' },
];

const TYPES: { value: ApiKeyType; label: string; hint: string }[] = [
  { value: 'publishable', label: 'Publishable', hint: 'For browsers and apps: public:read only.' },
  { value: 'secret', label: 'Secret', hint: 'For your servers: the scopes you choose.' },
  { value: 'system', label: 'System', hint: 'For your backend only: all scopes unless you choose.' },
];

const OVERLAPS = [
  { value: 0, label: 'Stop the old key now' },
  { value: 3600, label: 'Keep the old key for 1 hour' },
  { value: 86400, label: 'Keep the old key for 24 hours' },
  { value: 604800, label: 'Keep the old key for 7 days' },
];

export function ApiKeysPage() {
  const { storeId, mode } = useWorkspace();
  const [{ data, fetching, error }, refetch] = useQuery({ query: ApiKeysDocument, variables: { storeId, mode } });
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const toast = useToast();
  const setNotice = (message: string | null) => {
    if (message) toast.show({ message });
  };
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const keys = data?.apiKeys ?? [];
  // A key is rolled once: the key that replaced it names it.
  const replacedBy = new Map(keys.filter((k) => k.rolledFromId).map((k) => [k.rolledFromId!, k]));

  return (
    <>
      <PageTitle>API keys</PageTitle>
      <p className="muted">
        Keys of the {mode} mode: a {mode} key reads and writes only the {mode} catalog. Switch the mode in the header for the {mode === 'live' ? 'test' : 'live'} keys.
      </p>
      {secret ? (
        <SecretReveal
          label={secret.label}
          secret={secret.value}
          onDone={() => {
            setSecret(null);
          }}
        />
      ) : null}
            <CreateKeyForm
        onCreated={(value, name) => {
          setSecret({ label: `New API key “${name}”`, value });
          setNotice(null);
          reload();
        }}
      />
      <section aria-labelledby="keys-title">
        <h2 id="keys-title">Keys</h2>
        {error ? (
          <ErrorMessage error={toApiError(error)} title="The keys could not be loaded.">
            <button type="button" onClick={reload}>
              Try again
            </button>
          </ErrorMessage>
        ) : null}
        {fetching && !data ? <Loading label="Loading keys…" /> : null}
        {data && keys.length === 0 ? <EmptyState title={`No ${mode} API keys yet.`} /> : null}
        {keys.length > 0 ? (
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">API keys</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">Status</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {keys.map((key) => (
                  <KeyRow
                    key={key.id}
                    apiKey={key}
                    replacedBy={replacedBy.get(key.id)}
                    onRolled={(value) => {
                      setSecret({ label: `New key replacing “${key.name}”`, value });
                      reload();
                    }}
                    onRevoked={() => {
                      setNotice(`Revoked “${key.name}”.`);
                      reload();
                    }}
                  />
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
    </>
  );
}

function keyStatus(key: ApiKeyFieldsFragment): { label: string; tone: 'green' | 'grey' | 'amber' | 'red' } {
  if (key.revokedAt) return { label: 'Revoked', tone: 'red' };
  if (key.expiresAt && new Date(key.expiresAt).getTime() <= Date.now()) return { label: 'Expired', tone: 'grey' };
  if (key.expiresAt) return { label: `Expires ${formatDateTime(key.expiresAt)}`, tone: 'amber' };
  return { label: 'Active', tone: 'green' };
}

function KeyRow({
  apiKey,
  replacedBy,
  onRolled,
  onRevoked,
}: {
  apiKey: ApiKeyFieldsFragment;
  replacedBy?: ApiKeyFieldsFragment;
  onRolled: (secret: string) => void;
  onRevoked: () => void;
}) {
  const { storeId } = useWorkspace();
  const [overlap, setOverlap] = useState(86400);
  const [rolling, setRolling] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const status = keyStatus(apiKey);
  const usable = status.label !== 'Revoked' && status.label !== 'Expired';

  const roll = async () => {
    setError(null);
    try {
      const data = await mutate(RollApiKeyDocument, { storeId, id: apiKey.id, expiresInSeconds: overlap });
      setRolling(false);
      onRolled(data.rollApiKey.secret);
    } catch (caught) {
      setError(toApiError(caught));
    }
  };
  const revoke = async () => {
    setError(null);
    try {
      await mutate(RevokeApiKeyDocument, { storeId, id: apiKey.id });
      onRevoked();
    } catch (caught) {
      setError(toApiError(caught));
    }
  };

  return (
    <tr>
      <td>
        {apiKey.name}
        <div className="muted small">{apiKey.type}</div>
      </td>
      <td>
        <code>{apiKey.redactedKey}</code>
      </td>
      <td className="small">{apiKey.scopes.join(', ')}</td>
      <td>
        <Badge tone={status.tone}>{status.label}</Badge>
        {replacedBy ? <div className="muted small">Replaced by {replacedBy.redactedKey}</div> : null}
      </td>
      <td className="small">
        {formatDateTime(apiKey.createdAt)}
        {apiKey.createdBy ? <div className="muted">by {apiKey.createdBy.name}</div> : null}
      </td>
      <td className="small">{apiKey.lastUsedAt ? formatDateTime(apiKey.lastUsedAt) : 'Never'}</td>
      <td>
        {usable ? (
          <div className="row-actions">
            {replacedBy ? null : rolling ? (
              <span className="confirm" role="group" aria-label={`Roll ${apiKey.name}`}>
                <label htmlFor={`overlap-${apiKey.id}`} className="visually-hidden">
                  Overlap for {apiKey.name}
                </label>
                <select id={`overlap-${apiKey.id}`} value={overlap} onChange={(e) => setOverlap(Number(e.target.value))}>
                  {OVERLAPS.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </select>
                <button type="button" onClick={() => void roll()}>
                  Roll key
                </button>
                <button type="button" className="button-secondary" onClick={() => setRolling(false)}>
                  Cancel
                </button>
              </span>
            ) : (
              <button type="button" className="button-secondary button-small" onClick={() => setRolling(true)}>
                Roll<span className="visually-hidden"> {apiKey.name}</span>
              </button>
            )}
            <ConfirmButton confirmLabel="Revoke now" question={`Revoke “${apiKey.name}”? It stops working at once.`} onConfirm={revoke} className="button-danger button-small">
              Revoke<span className="visually-hidden"> {apiKey.name}</span>
            </ConfirmButton>
          </div>
        ) : (
          <span className="muted small">—</span>
        )}
        <ErrorMessage error={error} />
      </td>
    </tr>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (secret: string, name: string) => void }) {
  const { storeId, mode } = useWorkspace();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [type, setType] = useState<ApiKeyType>('secret');
  const [scopes, setScopes] = useState<string[]>(['products:read']);
  const [expiresAt, setExpiresAt] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const data = await mutate(CreateApiKeyDocument, {
        storeId,
        input: {
          name: name.trim(),
          type,
          mode,
          ...(type === 'publishable' ? {} : type === 'system' && scopes.length === 0 ? {} : { scopes }),
          ...(expiresAt ? { expiresAt: new Date(fromDateTimeLocal(expiresAt) ?? expiresAt).toISOString() } : {}),
        },
      });
      onCreated(data.createApiKey.secret, data.createApiKey.apiKey.name);
      setName('');
      setExpiresAt('');
      setOpen(false);
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };

  if (!open) {
    return (
      <p>
        <button type="button" className="button-primary" onClick={() => setOpen(true)}>
          Create API key
        </button>
      </p>
    );
  }
  const typeHint = TYPES.find((t) => t.value === type)?.hint;
  return (
    <section className="panel" aria-labelledby="create-key-title">
      <h2 id="create-key-title">New {mode} API key</h2>
      <form onSubmit={submit} noValidate>
        <div className="grid-3">
          <Field label="Name" hint="What uses it, e.g. storefront" error={error?.fields.name}>
            {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} required />}
          </Field>
          <Field label="Type" hint={typeHint} error={error?.fields.type}>
            {(p) => (
              <select {...p} value={type} onChange={(e) => setType(e.target.value as ApiKeyType)}>
                {TYPES.map((t) => (
                  <option key={t.value} value={t.value}>
                    {t.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Expires (optional)" error={error?.fields.expiresAt}>
            {(p) => <input {...p} type="datetime-local" value={expiresAt} onChange={(e) => setExpiresAt(e.target.value)} />}
          </Field>
        </div>
        {type !== 'publishable' ? (
          <fieldset className="field checkbox-group">
            <legend>Scopes{type === 'system' ? ' (none chosen: all)' : ''}</legend>
            <div className="checkbox-list checkbox-list-column">
              {SCOPES.map((s) => (
                <label key={s.value} className="checkbox">
                  <input
                    type="checkbox"
                    checked={scopes.includes(s.value)}
                    onChange={() => setScopes((current) => (current.includes(s.value) ? current.filter((x) => x !== s.value) : [...current, s.value]))}
                  />
                  {s.label}
                </label>
              ))}
            </div>
            {error?.fields.scopes ? <p className="field-error">{error.fields.scopes}</p> : null}
          </fieldset>
        ) : null}
        {error && Object.keys(error.fields).length === 0 ? <ErrorMessage error={error} title="The key was not created." /> : null}
        <div className="button-row">
          <button type="submit" className="button-primary" disabled={busy || !name.trim()}>
            {busy ? 'Creating…' : 'Create key'}
          </button>
          <button type="button" className="button-secondary" onClick={() => setOpen(false)}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
