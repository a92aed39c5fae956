import { type FormEvent, useRef, useState } from 'react';
import { useQuery } from 'urql';
import { mutate, toApiError, type ApiError } from '../../api/client';
import { Badge, ConfirmButton, ErrorMessage, Field, Loading, SecretReveal } from '../../components/ui';
import { useToast } from '../../components/toasts';
import { InviteStoreMemberDocument, RevokeStoreInvitationDocument, StoreInvitationsDocument, type InvitationFieldsFragment } from '../../generated/graphql';
import { formatDateTime } from '../../lib/format';
import { PermissionChoices } from '../../components/PermissionChoices';
import { inOrder, labelsOf } from '../../lib/permissions';
import { useLeaveGuard } from '../../lib/router';
import { useWorkspace } from '../../session';

/**
 * The owner invites someone by a one-time link (they need no account yet): the link is shown once, works for
 * seven days and once; pending invitations can be withdrawn.
 */

const STATUS: Record<string, { label: string; tone: 'green' | 'grey' | 'amber' | 'red' | 'blue' }> = {
  pending: { label: 'Waiting', tone: 'amber' },
  accepted: { label: 'Accepted', tone: 'green' },
  revoked: { label: 'Withdrawn', tone: 'grey' },
  expired: { label: 'Expired', tone: 'grey' },
};

export function InvitationsSection() {
  const { storeId, store } = useWorkspace();
  const toast = useToast();
  const [{ data, fetching, error }, refetch] = useQuery({ query: StoreInvitationsDocument, variables: { storeId } });
  const [link, setLink] = useState<{ email: string; url: string } | null>(null);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const invitations = data?.storeInvitations ?? [];

  return (
    <section className="panel" aria-labelledby="invite-title">
      <h2 id="invite-title">Invite by link</h2>
      <p className="muted">
        For someone who has no account yet, or whose email you are not sure of: they open the link, choose their name and a password (or sign in, if they
        have an account) and join {store.name} with the permissions you choose. The link works once, for 7 days.
      </p>
      {link ? <SecretReveal label={`Invitation link for ${link.email}`} secret={link.url} onDone={() => setLink(null)} /> : null}
      <InviteForm
        onInvited={(invitation, url) => {
          setLink({ email: invitation.email, url });
          toast.show({ message: `Invited ${invitation.email} with ${labelsOf(invitation.permissions)}. Send them the link.` });
          reload();
        }}
      />
      <h3>Invitations</h3>
      {error ? <ErrorMessage error={toApiError(error)} title="The invitations could not be loaded." /> : null}
      {fetching && !data ? <Loading label="Loading invitations…" /> : null}
      {data && invitations.length === 0 ? <p className="muted">No invitations yet.</p> : null}
      {invitations.length > 0 ? (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Invitations">
          <table className="table">
            <caption className="visually-hidden">Invitations, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Permissions</th>
                <th scope="col">Status</th>
                <th scope="col">Sent</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {invitations.map((invitation) => (
                <InvitationRow
                  key={invitation.id}
                  invitation={invitation}
                  onRevoked={() => {
                    toast.show({ message: `Withdrew the invitation of ${invitation.email}: its link no longer works.` });
                    reload();
                  }}
                />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

function InvitationRow({ invitation, onRevoked }: { invitation: InvitationFieldsFragment; onRevoked: () => void }) {
  const { storeId } = useWorkspace();
  const [error, setError] = useState<ApiError | null>(null);
  const status = STATUS[invitation.status] ?? { label: invitation.status, tone: 'grey' as const };
  const revoke = async () => {
    setError(null);
    try {
      await mutate(RevokeStoreInvitationDocument, { storeId, id: invitation.id });
      onRevoked();
    } catch (caught) {
      setError(toApiError(caught));
    }
  };
  return (
    <tr>
      <td>{invitation.email}</td>
      <td className="small">{labelsOf(invitation.permissions)}</td>
      <td>
        <Badge tone={status.tone}>{status.label}</Badge>
        <div className="muted small">
          {invitation.status === 'pending'
            ? `Link works until ${formatDateTime(invitation.expiresAt)}`
            : invitation.acceptedAt
              ? formatDateTime(invitation.acceptedAt)
              : invitation.revokedAt
                ? formatDateTime(invitation.revokedAt)
                : formatDateTime(invitation.expiresAt)}
        </div>
      </td>
      <td className="small">{formatDateTime(invitation.createdAt)}</td>
      <td>
        {invitation.status === 'pending' ? (
          <ConfirmButton
            className="button-danger button-small"
            confirmLabel="Withdraw now"
            question={`Withdraw the invitation of ${invitation.email}? Its link stops working at once.`}
            onConfirm={revoke}
          >
            Withdraw<span className="visually-hidden"> the invitation of {invitation.email}</span>
          </ConfirmButton>
        ) : (
          <span className="muted small">—</span>
        )}
        <ErrorMessage error={error} />
      </td>
    </tr>
  );
}

function inviteErrors(error: ApiError | null): { email?: string; permissions?: string; other: ApiError | null } {
  if (!error) return { other: null };
  const email = error.fields.email ? `This email ${error.fields.email}.` : undefined;
  const permissions = error.fields.permissions ?? Object.entries(error.fields).find(([field]) => field.startsWith('permissions'))?.[1];
  return { email, permissions, other: email || permissions ? null : error };
}

function InviteForm({ onInvited }: { onInvited: (invitation: InvitationFieldsFragment, url: string) => void }) {
  const { storeId } = useWorkspace();
  const [email, setEmail] = useState('');
  const [permissions, setPermissions] = useState<string[]>([]);
  const [missing, setMissing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const errors = inviteErrors(error);
  useLeaveGuard(email.trim() !== '');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!email.trim()) {
      setMissing(true);
      emailRef.current?.focus();
      return;
    }
    setMissing(false);
    setBusy(true);
    try {
      const data = await mutate(InviteStoreMemberDocument, { storeId, email: email.trim(), permissions: inOrder(permissions) });
      setEmail('');
      setPermissions([]);
      onInvited(data.inviteStoreMember.invitation, data.inviteStoreMember.link.url);
    } catch (caught) {
      const apiError = toApiError(caught);
      setError(apiError);
      if (inviteErrors(apiError).email) emailRef.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Invite someone by link">
      <Field label="Email to invite" hint="The account they join with will have this email." error={missing ? 'Enter the email of the person to invite.' : errors.email}>
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
              setMissing(false);
            }}
            required
          />
        )}
      </Field>
      <PermissionChoices legend="Permissions once they join" chosen={permissions} onChange={setPermissions} helpPrefix="invite-permission-help-" error={errors.permissions} />
      {errors.other ? <ErrorMessage error={errors.other} title="The invitation was not made." /> : null}
      <div className="button-row">
        <button type="submit" className="button-primary" disabled={busy}>
          {busy ? 'Inviting…' : 'Create invitation link'}
        </button>
      </div>
    </form>
  );
}
