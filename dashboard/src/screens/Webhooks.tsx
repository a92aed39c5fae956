import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { useQuery } from 'urql';
import { mutate, query, toApiError, type ApiError } from '../api/client';
import { Badge, ConfirmButton, EmptyState, ErrorMessage, Field, Loading, PageTitle, SecretReveal } from '../components/ui';
import { useToast } from '../components/toasts';
import {
  CreateWebhookEndpointDocument,
  DeleteWebhookEndpointDocument,
  EventTypesDocument,
  PingWebhookEndpointDocument,
  ReplayWebhookMessagesDocument,
  ResendWebhookMessageDocument,
  RollWebhookEndpointSecretDocument,
  UpdateWebhookEndpointDocument,
  WebhookEndpointDocument,
  WebhookEndpointsDocument,
  WebhookMessageDocument,
  WebhookMessagesDocument,
  type WebhookEndpointFieldsFragment,
  type WebhookEndpointStatus,
  type WebhookMessageFieldsFragment,
  type WebhookMessageQuery,
  type WebhookMessageStatus,
} from '../generated/graphql';
import { formatDateTime, fromDateTimeLocal } from '../lib/format';
import { Link, navigate } from '../lib/router';
import { useWorkspace } from '../session';


function endpointStatus(endpoint: WebhookEndpointFieldsFragment) {
  if (endpoint.status === 'disabled') {
    const reason = endpoint.disabledReason === 'gone' ? ' (answered 410 Gone)' : endpoint.disabledReason === 'failing' ? ' (failing for 3 days)' : '';
    return <Badge tone="grey">Disabled{reason}</Badge>;
  }
  if (endpoint.failingSince) return <Badge tone="amber">Failing since {formatDateTime(endpoint.failingSince)}</Badge>;
  return <Badge tone="green">Enabled</Badge>;
}

export function WebhooksPage() {
  const { storeId, mode } = useWorkspace();
  const [{ data, fetching, error }, refetch] = useQuery({ query: WebhookEndpointsDocument, variables: { storeId, mode } });
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const endpoints = data?.webhookEndpoints ?? [];
  const reload = () => refetch({ requestPolicy: 'network-only' });

  return (
    <>
      <PageTitle
        actions={
          creating ? null : (
            <button type="button" className="button-primary" onClick={() => setCreating(true)}>
              Add endpoint
            </button>
          )
        }
      >
        Webhooks
      </PageTitle>
      <p className="muted">
        Endpoints of the {mode} mode receive {mode}-mode events only, signed with the endpoint's secret (Standard Webhooks).
      </p>
      {secret ? <SecretReveal label="Signing secret of the new endpoint" secret={secret} onDone={() => setSecret(null)} /> : null}
      {creating ? (
        <section className="panel" aria-labelledby="new-endpoint-title">
          <h2 id="new-endpoint-title">New {mode} endpoint</h2>
          <EndpointForm
            submitLabel="Add endpoint"
            onCancel={() => setCreating(false)}
            onSubmit={async (values) => {
              const data = await mutate(CreateWebhookEndpointDocument, { storeId, input: { ...values, mode } });
              setSecret(data.createWebhookEndpoint.secret);
              setCreating(false);
              reload();
            }}
          />
        </section>
      ) : null}
      <section aria-labelledby="endpoints-title">
        <h2 id="endpoints-title">Endpoints</h2>
        {error ? (
          <ErrorMessage error={toApiError(error)} title="The endpoints could not be loaded.">
            <button type="button" onClick={reload}>
              Try again
            </button>
          </ErrorMessage>
        ) : null}
        {fetching && !data ? <Loading label="Loading endpoints…" /> : null}
        {data && endpoints.length === 0 ? <EmptyState title={`No ${mode} webhook endpoints yet.`} /> : null}
        {endpoints.length > 0 ? (
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">Webhook endpoints</caption>
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Events</th>
                  <th scope="col">Status</th>
                  <th scope="col">Secret</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {endpoints.map((endpoint) => (
                  <tr key={endpoint.id}>
                    <td>
                      <Link to={`webhooks/${endpoint.id}`}>{endpoint.url}</Link>
                      {endpoint.description ? <div className="muted small">{endpoint.description}</div> : null}
                    </td>
                    <td className="small">{endpoint.eventTypes.includes('*') ? 'All events' : endpoint.eventTypes.join(', ')}</td>
                    <td>{endpointStatus(endpoint)}</td>
                    <td>
                      <code>{endpoint.secretHint}</code>
                    </td>
                    <td className="small">{formatDateTime(endpoint.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
      <DeliveryLog endpointId={null} />
    </>
  );
}

interface EndpointValues {
  url: string;
  description: string;
  eventTypes: string[];
  status: WebhookEndpointStatus;
}

function EndpointForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial?: EndpointValues;
  submitLabel: string;
  onSubmit: (values: EndpointValues) => Promise<void>;
  onCancel?: () => void;
}) {
  const [values, setValues] = useState<EndpointValues>(initial ?? { url: '', description: '', eventTypes: ['*'], status: 'enabled' });
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const all = values.eventTypes.includes('*');
  // The catalogue comes from the service, so a type added there shows here without a new dashboard.
  const [{ data: catalogue }] = useQuery({ query: EventTypesDocument });
  const eventTypes = catalogue?.eventTypes ?? [];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      await onSubmit({ ...values, url: values.url.trim(), description: values.description.trim() });
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };
  const fieldError = (field: string) => error?.fields[field] ?? (field === 'url' && error?.code === 'webhook_url_forbidden' ? error.message : undefined);
  const eventsError = error?.fields.eventTypes ?? Object.entries(error?.fields ?? {}).find(([k]) => k.startsWith('eventTypes.'))?.[1];
  const general = error && Object.keys(error.fields).length === 0 && error.code !== 'webhook_url_forbidden' ? error : null;
  const toggle = (type: string) =>
    setValues((v) => ({ ...v, eventTypes: v.eventTypes.includes(type) ? v.eventTypes.filter((t) => t !== type) : [...v.eventTypes.filter((t) => t !== '*'), type] }));

  return (
    <form onSubmit={submit} noValidate>
      <div className="grid-2">
        <Field label="Endpoint URL" hint="An https URL your server answers on." error={fieldError('url')}>
          {(p) => <input {...p} type="url" value={values.url} onChange={(e) => setValues({ ...values, url: e.target.value })} placeholder="https://hooks.example.com/catalog" required />}
        </Field>
        <Field label="Description" error={fieldError('description')}>
          {(p) => <input {...p} value={values.description} onChange={(e) => setValues({ ...values, description: e.target.value })} maxLength={500} />}
        </Field>
      </div>
      <div className="field field-check">
        <input id="endpoint-enabled" type="checkbox" checked={values.status === 'enabled'} onChange={(e) => setValues({ ...values, status: e.target.checked ? 'enabled' : 'disabled' })} />
        <label htmlFor="endpoint-enabled">Enabled (deliver events)</label>
      </div>
      <fieldset className="field checkbox-group">
        <legend>Events to send</legend>
        <label className="checkbox">
          <input type="checkbox" checked={all} onChange={() => setValues({ ...values, eventTypes: all ? [] : ['*'] })} />
          All events, including types added later
        </label>
        {!all ? (
          <div className="checkbox-list event-list">
            {eventTypes.map((type) => (
              <label key={type} className="checkbox">
                <input type="checkbox" checked={values.eventTypes.includes(type)} onChange={() => toggle(type)} />
                <code>{type}</code>
              </label>
            ))}
          </div>
        ) : null}
        {eventsError ? <p className="field-error">{eventsError}</p> : null}
      </fieldset>
      <ErrorMessage error={general} title="The endpoint was not saved." />
      <div className="button-row">
        <button type="submit" className="button-primary" disabled={busy}>
          {busy ? 'Saving…' : submitLabel}
        </button>
        {onCancel ? (
          <button type="button" className="button-secondary" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

export function WebhookDetailPage({ endpointId }: { endpointId: string }) {
  const { storeId } = useWorkspace();
  const [{ data, fetching, error }, refetch] = useQuery({ query: WebhookEndpointDocument, variables: { storeId, id: endpointId } });
  const [secret, setSecret] = useState<string | null>(null);
  const toast = useToast();
  const setNotice = (message: string | null) => {
    if (message) toast.show({ message });
  };
  const [actionError, setActionError] = useState<ApiError | null>(null);
  const [overlap, setOverlap] = useState(24);
  const [logKey, setLogKey] = useState(0);
  const [since, setSince] = useState('');
  const endpoint = data?.webhookEndpoint;
  const reload = () => refetch({ requestPolicy: 'network-only' });

  const act = async (work: () => Promise<string>) => {
    setActionError(null);
    setNotice(null);
    try {
      setNotice(await work());
      reload();
      setLogKey((k) => k + 1);
    } catch (caught) {
      setActionError(toApiError(caught));
    }
  };

  if (error) {
    const apiError = toApiError(error);
    return (
      <>
        <PageTitle>{apiError.code === 'not_found' ? 'Endpoint not found' : 'Webhook endpoint'}</PageTitle>
        <ErrorMessage error={apiError}>
          <Link to="webhooks">Back to the endpoints</Link>
        </ErrorMessage>
      </>
    );
  }
  if (fetching && !endpoint) {
    return (
      <>
        <PageTitle>Webhook endpoint</PageTitle>
        <Loading />
      </>
    );
  }
  if (!endpoint) return null;

  return (
    <>
      <PageTitle>Webhook endpoint</PageTitle>
      <p className="breadcrumb">
        <Link to="webhooks">← All endpoints</Link> <span className="muted">· {endpoint.url}</span>
      </p>
      <dl className="facts">
        <dt>Status</dt>
        <dd>{endpointStatus(endpoint)}</dd>
        <dt>Mode</dt>
        <dd>{endpoint.mode}</dd>
        <dt>Signing secret</dt>
        <dd>
          <code>{endpoint.secretHint}</code>
          {endpoint.previousSecretExpiresAt ? ` (the previous one also signs until ${formatDateTime(endpoint.previousSecretExpiresAt)})` : ''}
        </dd>
      </dl>
      {secret ? <SecretReveal label="New signing secret" secret={secret} onDone={() => setSecret(null)} /> : null}
      <ErrorMessage error={actionError} />

      <section className="panel" aria-labelledby="edit-endpoint-title">
        <h2 id="edit-endpoint-title">Settings</h2>
        <EndpointForm
          key={endpoint.updatedAt}
          initial={{ url: endpoint.url, description: endpoint.description, eventTypes: endpoint.eventTypes, status: endpoint.status }}
          submitLabel="Save endpoint"
          onSubmit={async (values) => {
            await mutate(UpdateWebhookEndpointDocument, { storeId, id: endpoint.id, input: values });
            setNotice('Saved.');
            reload();
          }}
        />
      </section>

      <section className="panel" aria-labelledby="endpoint-tools-title">
        <h2 id="endpoint-tools-title">Tools</h2>
        <div className="button-row">
          <button
            type="button"
            className="button-secondary"
            onClick={() =>
              void act(async () => {
                await mutate(PingWebhookEndpointDocument, { storeId, id: endpoint.id });
                return 'Ping queued: its attempt appears in the delivery log below.';
              })
            }
          >
            Send a ping
          </button>
        </div>
        <div className="inline-form">
          <label htmlFor="roll-overlap">Old secret keeps signing for</label>
          <select id="roll-overlap" value={overlap} onChange={(e) => setOverlap(Number(e.target.value))}>
            <option value={0}>0 hours (stop now)</option>
            <option value={1}>1 hour</option>
            <option value={24}>24 hours</option>
            <option value={168}>7 days</option>
          </select>
          <button
            type="button"
            className="button-secondary"
            onClick={() =>
              void act(async () => {
                const data = await mutate(RollWebhookEndpointSecretDocument, { storeId, id: endpoint.id, overlapHours: overlap });
                setSecret(data.rollWebhookEndpointSecret.secret);
                return 'Secret rolled.';
              })
            }
          >
            Roll secret
          </button>
        </div>
        <div className="inline-form">
          <label htmlFor="replay-since">Resend failed messages since</label>
          <input id="replay-since" type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} />
          <button
            type="button"
            className="button-secondary"
            disabled={!since}
            onClick={() =>
              void act(async () => {
                const value = fromDateTimeLocal(since);
                if (!value) throw { code: 'error', message: 'Choose a valid time.', fields: {} } satisfies ApiError;
                const data = await mutate(ReplayWebhookMessagesDocument, { storeId, endpointId: endpoint.id, since: new Date(value).toISOString() });
                return `${data.replayWebhookMessages.replayed} failed message(s) queued again.`;
              })
            }
          >
            Replay
          </button>
        </div>
        <div className="danger-zone">
          <ConfirmButton
            confirmLabel="Delete endpoint"
            question="Delete this endpoint and its delivery log?"
            onConfirm={async () => {
              try {
                await mutate(DeleteWebhookEndpointDocument, { storeId, id: endpoint.id });
                navigate('webhooks');
              } catch (caught) {
                setActionError(toApiError(caught));
              }
            }}
          >
            Delete endpoint
          </ConfirmButton>
        </div>
      </section>
      <DeliveryLog endpointId={endpoint.id} key={logKey} />
    </>
  );
}

function messageBadge(status: WebhookMessageStatus) {
  if (status === 'succeeded') return <Badge tone="green">Succeeded</Badge>;
  if (status === 'failed') return <Badge tone="red">Failed</Badge>;
  return <Badge tone="blue">Pending</Badge>;
}

function DeliveryLog({ endpointId }: { endpointId: string | null }) {
  const { storeId } = useWorkspace();
  const [status, setStatus] = useState<WebhookMessageStatus | ''>('');
  const [items, setItems] = useState<WebhookMessageFieldsFragment[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<ApiError | null>(null);
  const [open, setOpen] = useState<string | null>(null);

  const load = useCallback(
    async (after: string | null) => {
      setLoading(true);
      setError(null);
      try {
        const filter = { ...(endpointId ? { endpointId } : {}), ...(status ? { status } : {}) };
        const data = await query(WebhookMessagesDocument, { storeId, filter, first: 20, after });
        const nodes = data.webhookMessages.edges.map((e) => e.node);
        setItems((current) => (after ? [...current, ...nodes] : nodes));
        setCursor(data.webhookMessages.pageInfo.endCursor ?? null);
        setHasMore(data.webhookMessages.pageInfo.hasNextPage);
      } catch (caught) {
        setError(toApiError(caught));
      } finally {
        setLoading(false);
      }
    },
    [storeId, endpointId, status],
  );
  useEffect(() => {
    void load(null);
  }, [load]);

  return (
    <section aria-labelledby="log-title" className="panel">
      <h2 id="log-title">Delivery log</h2>
      <div className="inline-form">
        <label htmlFor="log-status">Show</label>
        <select id="log-status" value={status} onChange={(e) => setStatus(e.target.value as WebhookMessageStatus | '')}>
          <option value="">All messages</option>
          <option value="pending">Pending</option>
          <option value="succeeded">Succeeded</option>
          <option value="failed">Failed</option>
        </select>
        <button type="button" className="button-secondary" onClick={() => void load(null)}>
          Refresh
        </button>
      </div>
      <ErrorMessage error={error} title="The delivery log could not be loaded." />
      {loading && items.length === 0 ? <Loading label="Loading the delivery log…" /> : null}
      {!loading && !error && items.length === 0 ? <EmptyState title="No messages in the log." /> : null}
      {items.length > 0 ? (
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">Delivery log</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Created</th>
                <th scope="col">Next attempt</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {items.map((message) => [
                <tr key={message.id}>
                  <td>
                    <code>{message.eventType}</code>
                    <div className="muted small">{message.webhookId}</div>
                  </td>
                  <td>{messageBadge(message.status)}</td>
                  <td className="num">{message.attemptCount}</td>
                  <td className="small">{formatDateTime(message.createdAt)}</td>
                  <td className="small">{message.nextAttemptAt ? formatDateTime(message.nextAttemptAt) : '—'}</td>
                  <td>
                    <button
                      type="button"
                      className="button-secondary button-small"
                      aria-expanded={open === message.id}
                      onClick={() => setOpen(open === message.id ? null : message.id)}
                    >
                      {open === message.id ? 'Hide' : 'Show'}
                      <span className="visually-hidden"> message {message.webhookId}</span>
                    </button>
                  </td>
                </tr>,
                open === message.id ? (
                  <tr key={`${message.id}-detail`}>
                    <td colSpan={6}>
                      <MessageDetail id={message.id} onResent={() => void load(null)} />
                    </td>
                  </tr>
                ) : null,
              ])}
            </tbody>
          </table>
        </div>
      ) : null}
      {hasMore ? (
        <button type="button" className="button-secondary" disabled={loading} onClick={() => void load(cursor)}>
          Show older messages
        </button>
      ) : null}
    </section>
  );
}

function MessageDetail({ id, onResent }: { id: string; onResent: () => void }) {
  const { storeId } = useWorkspace();
  const [message, setMessage] = useState<WebhookMessageQuery['webhookMessage'] | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const toast = useToast();
  const setNotice = (message: string | null) => {
    if (message) toast.show({ message });
  };
  const load = useCallback(async () => {
    try {
      setMessage((await query(WebhookMessageDocument, { storeId, id })).webhookMessage);
    } catch (caught) {
      setError(toApiError(caught));
    }
  }, [storeId, id]);
  useEffect(() => {
    void load();
  }, [load]);

  const resend = async () => {
    setError(null);
    try {
      await mutate(ResendWebhookMessageDocument, { storeId, id });
      setNotice('Queued to be sent again.');
      onResent();
      void load();
    } catch (caught) {
      setError(toApiError(caught));
    }
  };

  if (!message) return error ? <ErrorMessage error={error} /> : <Loading />;
  return (
    <div className="message-detail">
      <div className="button-row">
        <button type="button" className="button-secondary" onClick={() => void resend()}>
          Resend
        </button>
      </div>
      <ErrorMessage error={error} />
      <h3>Attempts</h3>
      {message.attempts.length === 0 ? <p className="muted">No attempt yet.</p> : null}
      {message.attempts.length > 0 ? (
        <div className="table-wrap">
          <table className="table table-compact">
            <caption className="visually-hidden">Attempts</caption>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Started</th>
                <th scope="col">Trigger</th>
                <th scope="col">Result</th>
                <th scope="col">Duration</th>
                <th scope="col">Answer</th>
              </tr>
            </thead>
            <tbody>
              {message.attempts.map((a) => (
                <tr key={a.id}>
                  <td>{a.number}</td>
                  <td>{formatDateTime(a.startedAt)}</td>
                  <td>{a.trigger}</td>
                  <td>
                    {a.succeeded ? <Badge tone="green">OK</Badge> : <Badge tone="red">Failed</Badge>} {a.statusCode ?? ''} {a.error ?? ''}
                  </td>
                  <td>{a.durationMs} ms</td>
                  <td>
                    <code className="clip">{a.responseBody ?? ''}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <h3>Payload</h3>
      <pre className="payload" tabIndex={0} aria-label="Payload">
        {prettyJson(message.payload)}
      </pre>
    </div>
  );
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text || '(empty: the event has left the change history)';
  }
}
