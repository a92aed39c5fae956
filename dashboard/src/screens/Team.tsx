import { type FormEvent, lazy, Suspense, useRef, useState } from 'react';
import { useQuery } from 'urql';
import { mutate, toApiError, type ApiError } from '../api/client';
import { Badge, ConfirmButton, EmptyState, ErrorMessage, Field, Loading, PageTitle } from '../components/ui';
import { useToast } from '../components/toasts';
import { AddStoreMemberDocument, RemoveStoreMemberDocument, StoreMembersDocument, UpdateStoreMemberDocument, type MemberFieldsFragment } from '../generated/graphql';
import { formatDateTime } from '../lib/format';
import { inOrder, labelsOf, PERMISSIONS } from '../lib/permissions';
import { useWorkspace } from '../session';
import { PermissionChoices } from '../components/PermissionChoices';

/** The id of a permission's explanation in the "Add a member" form, which the members' checkboxes point to as well. */
const helpId = (permission: string) => `permission-help-${permission}`;

/** Invitations by link, loaded when the owner's Team screen is first shown. */
const InvitationsSection = lazy(() => import('./team/Invitations').then((m) => ({ default: m.InvitationsSection })));


const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((p) => b.includes(p));

/**
 * The store's team. The owner sees every member, changes staff permissions, removes staff and adds users who
 * have an account; anyone else sees their own role and permissions.
 */
export function TeamPage() {
  const { membership } = useWorkspace();
  return (
    <>
      <PageTitle>Team</PageTitle>
      {membership.role === 'owner' ? <OwnerView /> : <StaffView />}
    </>
  );
}

/** A staff member's own role and permissions, and who manages the team. */
function StaffView() {
  const { membership, store, session } = useWorkspace();
  return (
    <>
      <section className="panel" aria-labelledby="you-title">
        <h2 id="you-title">You in {store.name}</h2>
        <dl className="facts">
          <dt>Name</dt>
          <dd>{session.user.name}</dd>
          <dt>Email</dt>
          <dd>{session.user.email}</dd>
          <dt>Role</dt>
          <dd>{membership.role === 'staff' ? 'Staff' : membership.role}</dd>
        </dl>
        <h3>Permissions</h3>
        <ul className="permission-list">
          {PERMISSIONS.map((p) => {
            const held = membership.permissions.includes(p.value);
            return (
              <li key={p.value} className={held ? 'held' : 'not-held'}>
                <span className="permission-mark" aria-hidden="true">
                  {held ? '✓' : '✕'}
                </span>
                <strong>{p.label}</strong> <span className="visually-hidden">{held ? '(granted)' : '(not granted)'}</span>
                <span className="muted"> — {p.help}</span>
              </li>
            );
          })}
        </ul>
      </section>
      <section className="panel" aria-labelledby="members-title">
        <h2 id="members-title">Members</h2>
        <p>Only the store's owner sees and manages the team: ask them to add someone or to change your permissions.</p>
      </section>
    </>
  );
}

function OwnerView() {
  const { storeId, store, session } = useWorkspace();
  const [{ data, fetching, error }, refetch] = useQuery({ query: StoreMembersDocument, variables: { storeId } });
  const toast = useToast();
  const setNotice = (message: string | null) => {
    if (message) toast.show({ message });
  };
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const members = data?.storeMembers ?? [];
  const staff = members.filter((m) => m.role !== 'owner');

  return (
    <>
      <p className="muted">
        The people who work on {store.name}. You own the store: you hold every permission and choose what each staff member may do.
      </p>
            <section aria-labelledby="members-title">
        <h2 id="members-title">Members</h2>
        {error ? (
          <ErrorMessage error={toApiError(error)} title="The members could not be loaded.">
            <button type="button" onClick={reload}>
              Try again
            </button>
          </ErrorMessage>
        ) : null}
        {fetching && !data ? <Loading label="Loading members…" /> : null}
        {members.length > 0 ? (
          <ul className="category-list" aria-label={`Members of ${store.name}`}>
            {members.map((member) => (
              <MemberItem
                // A change of their permissions on the server (seen on reload) starts the checkboxes afresh.
                key={`${member.user.id}:${inOrder(member.permissions).join(',')}`}
                member={member}
                you={member.user.id === session.user.id}
                onRemoved={() => {
                  setNotice(`Removed ${member.user.name} (${member.user.email}) from ${store.name}.`);
                  reload();
                }}
              />
            ))}
          </ul>
        ) : null}
        {data && staff.length === 0 ? (
          <EmptyState title="No staff members yet.">
            <p>Add someone who has an account with the form below.</p>
          </EmptyState>
        ) : null}
      </section>
      <AddMemberForm
        onAdded={(added) => {
          setNotice(`Added ${added.user.name} (${added.user.email}) with ${labelsOf(added.permissions)}.`);
          reload();
        }}
      />
      <Suspense fallback={<Loading label="Loading invitations…" />}>
        <InvitationsSection />
      </Suspense>
    </>
  );
}

/** One member: who they are, and for staff their permissions (saved with Save) and a Remove button. */
function MemberItem({
  member,
  you,
  onRemoved,
}: {
  member: MemberFieldsFragment;
  you: boolean;
  onRemoved: () => void;
}) {
  const { storeId } = useWorkspace();
  const [saved, setSaved] = useState<string[]>(() => inOrder(member.permissions));
  const [draft, setDraft] = useState<string[]>(() => inOrder(member.permissions));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [savedNote, setSavedNote] = useState(false);
  const owner = member.role === 'owner';
  const changed = !sameSet(saved, draft);
  const name = member.user.name;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setSavedNote(false);
    setBusy(true);
    try {
      const data = await mutate(UpdateStoreMemberDocument, { storeId, userId: member.user.id, permissions: inOrder(draft) });
      const now = inOrder(data.updateStoreMember.permissions);
      setSaved(now);
      setDraft(now);
      setSavedNote(true);
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    setError(null);
    try {
      await mutate(RemoveStoreMemberDocument, { storeId, userId: member.user.id });
      onRemoved();
    } catch (caught) {
      setError(toApiError(caught));
    }
  };

  return (
    <li className="panel member">
      <h3>
        {name}
        {you ? ' (you)' : ''}
      </h3>
      <dl className="facts">
        <dt>Email</dt>
        <dd>{member.user.email}</dd>
        <dt>Role</dt>
        <dd>{owner ? <Badge tone="blue">Owner</Badge> : <Badge tone="grey">Staff</Badge>}</dd>
        <dt>{owner ? 'Owner since' : 'Member since'}</dt>
        <dd>{formatDateTime(member.createdAt)}</dd>
      </dl>
      {owner ? (
        <p className="muted">The owner holds every permission; the owner's permissions cannot be changed and the owner cannot be removed.</p>
      ) : (
        <form onSubmit={save} noValidate aria-label={`Permissions of ${name}`}>
          <fieldset className="field checkbox-group">
            <legend>
              Permissions<span className="visually-hidden"> of {name}</span>
            </legend>
            <div className="checkbox-list">
              {PERMISSIONS.map((p) => (
                <label key={p.value} className="checkbox">
                  <input
                    type="checkbox"
                    aria-describedby={helpId(p.value)}
                    checked={draft.includes(p.value)}
                    onChange={() => {
                      setSavedNote(false);
                      setDraft((current) => (current.includes(p.value) ? current.filter((x) => x !== p.value) : [...current, p.value]));
                    }}
                  />
                  {p.label}
                </label>
              ))}
            </div>
            {error?.fields.permissions ? <p className="field-error">{error.fields.permissions}</p> : null}
          </fieldset>
          <div className="button-row">
            <button type="submit" className="button-primary" disabled={busy || !changed}>
              {busy ? 'Saving…' : 'Save'}
              <span className="visually-hidden"> the permissions of {name}</span>
            </button>
            {changed ? (
              <button type="button" className="button-secondary" onClick={() => setDraft(saved)}>
                Undo changes<span className="visually-hidden"> to {name}</span>
              </button>
            ) : null}
            <ConfirmButton
              confirmLabel="Remove now"
              question={`Remove ${name} from the store? They lose access at once.`}
              onConfirm={remove}
            >
              Remove<span className="visually-hidden"> {name}</span>
            </ConfirmButton>
          </div>
          <p className="hint" role="status">
            {changed ? 'Unsaved changes.' : savedNote ? `Saved: ${name} now has ${labelsOf(saved)}.` : ''}
          </p>
        </form>
      )}
      {error && !error.fields.permissions ? <ErrorMessage error={error} title={`The change to ${name} was not saved.`} /> : null}
    </li>
  );
}

/** Explains a refused "add": the email's problems go with the email field, anything else above the buttons. */
function addErrors(error: ApiError | null): { email?: string; permissions?: string; other: ApiError | null } {
  if (!error) return { other: null };
  if (error.code === 'not_found') return { email: 'No one has an account with this email yet: invite them with a link instead (below).', other: null };
  if (error.code === 'conflict') return { email: error.message, other: null };
  const email = error.fields.email;
  const permissions = error.fields.permissions ?? Object.entries(error.fields).find(([field]) => field.startsWith('permissions'))?.[1];
  const explained = Boolean(email || permissions);
  return { email, permissions, other: explained ? null : error };
}

function AddMemberForm({ onAdded }: { onAdded: (member: MemberFieldsFragment) => void }) {
  const { storeId, store } = useWorkspace();
  const [email, setEmail] = useState('');
  const [permissions, setPermissions] = useState<string[]>([]);
  const [error, setError] = useState<ApiError | null>(null);
  const [missingEmail, setMissingEmail] = useState(false);
  const [busy, setBusy] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const errors = addErrors(error);
  const emailError = missingEmail ? 'Enter the email of an existing account.' : errors.email;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!email.trim()) {
      setMissingEmail(true);
      emailRef.current?.focus();
      return;
    }
    setMissingEmail(false);
    setBusy(true);
    try {
      const data = await mutate(AddStoreMemberDocument, { storeId, email: email.trim(), permissions: inOrder(permissions) });
      setEmail('');
      setPermissions([]);
      onAdded(data.addStoreMember);
    } catch (caught) {
      const apiError = toApiError(caught);
      setError(apiError);
      if (addErrors(apiError).email) emailRef.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel" aria-labelledby="add-member-title">
      <h2 id="add-member-title">Add a member</h2>
      <p className="muted">
        Adds someone who already has an account as staff of {store.name}. Someone new gets an invitation link instead (below).
      </p>
      <form onSubmit={submit} noValidate aria-labelledby="add-member-title">
        <Field label="Email" hint="The email they sign in with." error={emailError}>
          {(p) => (
            <input
              {...p}
              ref={emailRef}
              type="email"
              autoComplete="off"
              spellCheck={false}
              value={email}
              onChange={(e) => {
                setEmail(e.target.value);
                setMissingEmail(false);
              }}
              required
            />
          )}
        </Field>
        <PermissionChoices legend="Permissions" chosen={permissions} onChange={setPermissions} helpPrefix={helpId('')} error={errors.permissions} />
        {errors.other ? <ErrorMessage error={errors.other} title="The member was not added." /> : null}
        <div className="button-row">
          <button type="submit" className="button-primary" disabled={busy}>
            {busy ? 'Adding…' : 'Add member'}
          </button>
        </div>
      </form>
    </section>
  );
}
