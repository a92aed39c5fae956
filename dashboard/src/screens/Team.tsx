import { PageTitle } from '../components/ui';
import { useWorkspace } from '../session';

const PERMISSIONS: { value: string; label: string }[] = [
  { value: 'manage_products', label: 'Manage products and categories (and the test catalog)' },
  { value: 'manage_api_keys', label: 'Manage API keys' },
  { value: 'manage_webhooks', label: 'Manage webhook endpoints and their delivery log' },
  { value: 'manage_oauth_apps', label: 'Manage connected OAuth apps' },
  { value: 'view_changes', label: 'See the change history' },
];

/** The signed-in user's role and permissions in the store. */
export function TeamPage() {
  const { membership, store, session } = useWorkspace();
  const owner = membership.role === 'owner';
  return (
    <>
      <PageTitle>Team</PageTitle>
      <section className="panel" aria-labelledby="you-title">
        <h2 id="you-title">You in {store.name}</h2>
        <dl className="facts">
          <dt>Name</dt>
          <dd>{session.user.name}</dd>
          <dt>Email</dt>
          <dd>{session.user.email}</dd>
          <dt>Role</dt>
          <dd>{owner ? 'Owner (every permission)' : membership.role}</dd>
        </dl>
        <h3>Permissions</h3>
        <ul className="permission-list">
          {PERMISSIONS.map((p) => {
            const held = owner || membership.permissions.includes(p.value);
            return (
              <li key={p.value} className={held ? 'held' : 'not-held'}>
                <span className="permission-mark" aria-hidden="true">
                  {held ? '✓' : '✕'}
                </span>
                {p.label} <span className="visually-hidden">{held ? '(granted)' : '(not granted)'}</span>
                <code className="muted small"> {p.value}</code>
              </li>
            );
          })}
        </ul>
      </section>
      <section className="panel" aria-labelledby="members-title">
        <h2 id="members-title">Members</h2>
        <p>
          The dashboard cannot list or change the store's members yet. Until it can, the store's operators manage them on the server with the
          command line (<code>member add</code>, <code>member list</code>, <code>member remove</code>).
        </p>
      </section>
    </>
  );
}
