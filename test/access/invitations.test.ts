import { issueDashboardToken } from '../../src/access/auth/dashboardTokens';
import { createUser } from '../../src/access/services/stores';
import { db } from '../../src/platform/db/client';
import { testContext } from '../helpers/context';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';

/**
 * Team invitations by a one-time link: the owner invites an email with permissions and gets the link once;
 * the link works once, for seven days, until revoked; accepting it creates the account when the email has none
 * (name and password) or adds the signed-in account that has the email; each write is in the store's history.
 */
let t: TestServer;
let a: StoreFixture;
let clock = Date.now();

beforeAll(async () => {
  // Throttle counts of their own, apart from other files' servers sharing Redis.
  t = await startTestServer({ LOGIN_THROTTLE_REDIS_PREFIX: `test:invitations:${process.pid}:${Date.now()}:` }, { now: () => new Date(clock) });
  a = await createStoreFixture();
});
afterAll(() => t?.close());

const INVITE =
  'mutation($storeId: ID!, $email: String!, $permissions: [String!]!) { inviteStoreMember(storeId: $storeId, email: $email, permissions: $permissions) { invitation { id email permissions status expiresAt } link { token url } } }';
const LIST = 'query($storeId: ID!) { storeInvitations(storeId: $storeId) { id email status permissions acceptedAt revokedAt } }';
const PREVIEW = 'query($token: String!) { storeInvitation(token: $token) { storeName email permissions accountExists expiresAt } }';
const REVOKE = 'mutation($storeId: ID!, $id: ID!) { revokeStoreInvitation(storeId: $storeId, id: $id) { id status revokedAt } }';
const ACCEPT =
  'mutation($token: String!, $name: String, $password: String) { acceptStoreInvitation(token: $token, name: $name, password: $password) { storeId storeName email accountCreated } }';
const LOGIN = 'mutation($email: String!, $password: String!) { login(email: $email, password: $password) { token } }';
const codeOf = (res: { body: any }) => res.body?.errors?.[0]?.extensions?.code;

let n = 0;
const email = () => `invitee-${Date.now()}-${n++}@example.test`;

async function invite(address: string, permissions: string[] = ['manage_products']) {
  const res = await t.graphql(INVITE, { storeId: a.storeId, email: address, permissions }, { token: a.ownerToken });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.inviteStoreMember as { invitation: { id: string; status: string; expiresAt: string }; link: { token: string; url: string } };
}

describe('store invitations', () => {
  it('a new email: the link shows once, creates the account with the invited permissions, signs in, and works only once', async () => {
    const address = email();
    const made = await invite(address.toUpperCase(), ['view_changes', 'manage_products']);
    expect(made.invitation).toMatchObject({ email: address, permissions: ['manage_products', 'view_changes'], status: 'pending' });
    expect(made.link.url).toBe(`${t.config.publicBaseUrl ?? made.link.url.split('/dashboard/')[0]}/dashboard/invite/${made.link.token}`);
    expect(new Date(made.invitation.expiresAt).getTime() - clock).toBe(7 * 24 * 3600 * 1000);
    // Only the digest is stored.
    const row = await db().storeInvitation.findUniqueOrThrow({ where: { id: made.invitation.id } });
    expect(JSON.stringify(row)).not.toContain(made.link.token);
    const listed = await t.graphql(LIST, { storeId: a.storeId }, { token: a.ownerToken });
    expect(JSON.stringify(listed.body.data)).not.toContain(made.link.token);
    expect(listed.body.data.storeInvitations[0]).toMatchObject({ id: made.invitation.id, status: 'pending' });

    const preview = await t.graphql(PREVIEW, { token: made.link.token });
    expect(preview.body.data.storeInvitation).toMatchObject({ email: address, accountExists: false, permissions: ['manage_products', 'view_changes'] });

    // Every problem of the new account at once.
    const incomplete = await t.graphql(ACCEPT, { token: made.link.token, name: ' ', password: 'short' });
    expect(codeOf(incomplete)).toBe('validation_failed');
    expect(incomplete.body.errors[0].extensions.errors.map((e: { field: string }) => e.field).sort()).toEqual(['name', 'password']);

    const accepted = await t.graphql(ACCEPT, { token: made.link.token, name: 'Ines Invitee', password: 'a long enough password' });
    expect(accepted.body.data.acceptStoreInvitation).toEqual({ storeId: a.storeId, storeName: expect.any(String), email: address, accountCreated: true });
    const user = await db().user.findUniqueOrThrow({ where: { email: address }, include: { memberships: true } });
    expect(user.name).toBe('Ines Invitee');
    expect(user.memberships).toEqual([expect.objectContaining({ storeId: a.storeId, role: 'staff', permissions: ['manage_products', 'view_changes'] })]);
    const login = await t.graphql(LOGIN, { email: address, password: 'a long enough password' });
    expect(login.body.data.login.token).toMatch(/^svc_/);

    // Single use.
    const again = await t.graphql(ACCEPT, { token: made.link.token, name: 'Someone', password: 'another password' });
    expect(codeOf(again)).toBe('invitation_unusable');
    expect(again.body.errors[0].extensions.invitation_state).toBe('used');
    expect(codeOf(await t.graphql(PREVIEW, { token: made.link.token }))).toBe('invitation_unusable');
    const after = await t.graphql(LIST, { storeId: a.storeId }, { token: a.ownerToken });
    expect(after.body.data.storeInvitations.find((i: { id: string }) => i.id === made.invitation.id)).toMatchObject({ status: 'accepted', acceptedAt: expect.any(String) });

    // The history: invited, accepted, and the member added, by the new account.
    const events = await db().event.findMany({ where: { storeId: a.storeId, OR: [{ resourceId: made.invitation.id }, { resourceId: user.id }] }, orderBy: { id: 'asc' } });
    expect(events.map((e) => [e.type, e.resourceType])).toEqual([
      ['member.invited', 'invitation'],
      ['member.invitation_accepted', 'invitation'],
      ['member.added', 'member'],
    ]);
    expect(events[0].actorId).toBe(a.ownerId);
    expect(events[1]).toMatchObject({ actorKind: 'user', actorId: user.id });
    expect(JSON.stringify(events)).not.toContain(made.link.token);
  });

  it('an existing account must sign in as itself; then it joins with the invited permissions', async () => {
    const address = email();
    const user = await createUser(testContext(), { email: address, name: 'Eve Existing', password: 'her own password' });
    const made = await invite(address, ['manage_webhooks']);
    expect((await t.graphql(PREVIEW, { token: made.link.token })).body.data.storeInvitation.accountExists).toBe(true);

    expect(codeOf(await t.graphql(ACCEPT, { token: made.link.token, name: 'Mallory', password: 'takeover password' }))).toBe('unauthenticated');
    const stranger = await createUser(testContext(), { email: email(), name: 'Stranger' });
    const strangerToken = (await issueDashboardToken(testContext(), stranger.id)).token;
    expect(codeOf(await t.graphql(ACCEPT, { token: made.link.token }, { token: strangerToken }))).toBe('forbidden');
    expect(await db().membership.count({ where: { storeId: a.storeId, userId: { in: [user.id, stranger.id] } } })).toBe(0);

    const own = (await issueDashboardToken(testContext(), user.id)).token;
    const accepted = await t.graphql(ACCEPT, { token: made.link.token }, { token: own });
    expect(accepted.body.data.acceptStoreInvitation).toMatchObject({ email: address, accountCreated: false });
    const member = await db().membership.findUniqueOrThrow({ where: { storeId_userId: { storeId: a.storeId, userId: user.id } } });
    expect(member.permissions).toEqual(['manage_webhooks']);
    // The password was not touched.
    expect((await t.graphql(LOGIN, { email: address, password: 'her own password' })).body.data.login.token).toBeTruthy();
    // Already a member: no second invitation.
    const twice = await t.graphql(INVITE, { storeId: a.storeId, email: address, permissions: [] }, { token: a.ownerToken });
    expect(codeOf(twice)).toBe('conflict');
    expect(twice.body.errors[0].extensions.errors).toEqual([expect.objectContaining({ field: 'email' })]);
  });

  it('a wrong or mistyped token, an expired link and a revoked one are refused and add no one', async () => {
    expect(codeOf(await t.graphql(ACCEPT, { token: 'svc_inv_nothing', name: 'X', password: 'long enough password' }))).toBe('not_found');
    const made = await invite(email());
    const mistyped = made.link.token.slice(0, -1) + (made.link.token.endsWith('A') ? 'B' : 'A');
    expect(codeOf(await t.graphql(ACCEPT, { token: mistyped, name: 'X', password: 'long enough password' }))).toBe('not_found');

    const expiring = await invite(email());
    clock += 7 * 24 * 3600 * 1000 + 1000;
    try {
      const expired = await t.graphql(ACCEPT, { token: expiring.link.token, name: 'Late', password: 'long enough password' });
      expect(codeOf(expired)).toBe('invitation_unusable');
      expect(expired.body.errors[0].extensions.invitation_state).toBe('expired');
      const listed = await t.graphql(LIST, { storeId: a.storeId }, { token: a.ownerToken });
      expect(listed.body.data.storeInvitations.find((i: { id: string }) => i.id === expiring.invitation.id).status).toBe('expired');
    } finally {
      clock -= 7 * 24 * 3600 * 1000 + 1000;
    }

    const revoked = await t.graphql(REVOKE, { storeId: a.storeId, id: made.invitation.id }, { token: a.ownerToken });
    expect(revoked.body.data.revokeStoreInvitation).toMatchObject({ id: made.invitation.id, status: 'revoked' });
    const refused = await t.graphql(ACCEPT, { token: made.link.token, name: 'X', password: 'long enough password' });
    expect(codeOf(refused)).toBe('invitation_unusable');
    expect(refused.body.errors[0].extensions.invitation_state).toBe('revoked');
    const types = await db().event.findMany({ where: { resourceId: made.invitation.id }, orderBy: { id: 'asc' }, select: { type: true } });
    expect(types.map((e) => e.type)).toEqual(['member.invited', 'member.invitation_revoked']);
    const invitedEmails = [made.invitation, expiring.invitation].map((i) => i.id);
    const rows = await db().storeInvitation.findMany({ where: { id: { in: invitedEmails } } });
    expect(await db().user.count({ where: { email: { in: rows.map((r) => r.email) } } })).toBe(0);
  });

  it('a new invitation of the same email replaces the pending one', async () => {
    const address = email();
    const first = await invite(address);
    const second = await invite(address, ['view_changes']);
    expect(codeOf(await t.graphql(PREVIEW, { token: first.link.token }))).toBe('invitation_unusable');
    expect((await t.graphql(PREVIEW, { token: second.link.token })).body.data.storeInvitation.permissions).toEqual(['view_changes']);
  });

  it('only the owner invites, lists and revokes', async () => {
    const made = await invite(email());
    expect(codeOf(await t.graphql(INVITE, { storeId: a.storeId, email: email(), permissions: [] }, { token: a.staffToken }))).toBe('forbidden');
    expect(codeOf(await t.graphql(LIST, { storeId: a.storeId }, { token: a.staffToken }))).toBe('forbidden');
    expect(codeOf(await t.graphql(REVOKE, { storeId: a.storeId, id: made.invitation.id }, { token: a.staffToken }))).toBe('forbidden');
    expect(codeOf(await t.graphql(INVITE, { storeId: a.storeId, email: email(), permissions: [] }))).toBe('unauthenticated');
    const bad = await t.graphql(INVITE, { storeId: a.storeId, email: 'not an email', permissions: ['root'] }, { token: a.ownerToken });
    expect(codeOf(bad)).toBe('validation_failed');
    expect(bad.body.errors[0].extensions.errors.map((e: { field: string }) => e.field).sort()).toEqual(['email', 'permissions.0']);
  });

  it('wrong tokens count toward the login throttle of the address', async () => {
    const own = await startTestServer({ LOGIN_MAX_FAILURES_PER_ADDRESS: '3', LOGIN_THROTTLE_REDIS_PREFIX: `test:invitations-throttle:${process.pid}:${Date.now()}:` });
    try {
      const codes: string[] = [];
      for (let i = 0; i < 5; i++) codes.push(codeOf(await own.graphql(PREVIEW, { token: `svc_inv_guess${i}` })));
      expect(codes).toEqual(['not_found', 'not_found', 'not_found', 'too_many_login_attempts', 'too_many_login_attempts']);
    } finally {
      await own.close();
    }
  });
});
