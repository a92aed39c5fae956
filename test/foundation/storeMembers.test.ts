import { db } from '../../src/platform/db/client';
import { createUser } from '../../src/access/services/stores';
import { testContext } from '../helpers/context';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';

/**
 * The store's team over GraphQL (the dashboard's Team screen): only the owner
 * reads and changes it; adding takes an existing account by email; the owner
 * can be neither changed nor removed; every change is in the store's history.
 */
let t: TestServer;
let a: StoreFixture;
let other: StoreFixture;
let newcomer: { id: string; email: string };

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
  other = await createStoreFixture();
  newcomer = await createUser(testContext(), { email: `new-${Date.now()}@example.test`, name: 'Nia New' });
});
afterAll(() => t?.close());

const MEMBERS = 'query($storeId: ID!) { storeMembers(storeId: $storeId) { role permissions user { email name } } }';
const ADD = 'mutation($storeId: ID!, $email: String!, $permissions: [String!]!) { addStoreMember(storeId: $storeId, email: $email, permissions: $permissions) { role permissions user { id email } } }';
const UPDATE = 'mutation($storeId: ID!, $userId: ID!, $permissions: [String!]!) { updateStoreMember(storeId: $storeId, userId: $userId, permissions: $permissions) { permissions } }';
const REMOVE = 'mutation($storeId: ID!, $userId: ID!) { removeStoreMember(storeId: $storeId, userId: $userId) }';
const codeOf = (res: { body: any }) => res.body?.errors?.[0]?.extensions?.code;

describe('store members over GraphQL', () => {
  it('only the owner reads the team: staff with every permission but ownership, and other stores, are forbidden', async () => {
    const own = await t.graphql(MEMBERS, { storeId: a.storeId }, { token: a.ownerToken });
    expect(own.body.data.storeMembers[0]).toMatchObject({ role: 'owner' });
    expect(own.body.data.storeMembers.length).toBe(3);
    expect(codeOf(await t.graphql(MEMBERS, { storeId: a.storeId }, { token: a.staffToken }))).toBe('forbidden');
    expect(codeOf(await t.graphql(MEMBERS, { storeId: a.storeId }, { token: other.ownerToken }))).toBe('forbidden');
    expect(codeOf(await t.graphql(MEMBERS, { storeId: a.storeId }))).toBe('unauthenticated');
  });

  it('add, change and remove a member; each change is in the store history', async () => {
    const added = await t.graphql(ADD, { storeId: a.storeId, email: newcomer.email.toUpperCase(), permissions: ['view_changes', 'manage_products'] }, { token: a.ownerToken });
    expect(added.body.data.addStoreMember).toEqual({ role: 'staff', permissions: ['manage_products', 'view_changes'], user: { id: newcomer.id, email: newcomer.email } });
    expect(codeOf(await t.graphql(ADD, { storeId: a.storeId, email: newcomer.email, permissions: [] }, { token: a.ownerToken }))).toBe('conflict');

    const changed = await t.graphql(UPDATE, { storeId: a.storeId, userId: newcomer.id, permissions: ['manage_webhooks'] }, { token: a.ownerToken });
    expect(changed.body.data.updateStoreMember).toEqual({ permissions: ['manage_webhooks'] });

    const removed = await t.graphql(REMOVE, { storeId: a.storeId, userId: newcomer.id }, { token: a.ownerToken });
    expect(removed.body.data.removeStoreMember).toBe(true);
    expect(await db().membership.count({ where: { storeId: a.storeId, userId: newcomer.id } })).toBe(0);

    const events = await db().event.findMany({ where: { storeId: a.storeId, resourceId: newcomer.id }, orderBy: { id: 'asc' }, select: { type: true } });
    expect(events.map((e) => e.type)).toEqual(['member.added', 'member.updated', 'member.removed']);
  });

  it('refuses what would break the team: an unknown email (on the email field), a bad permission, the owner changed or removed, staff managing it', async () => {
    const unknown = await t.graphql(ADD, { storeId: a.storeId, email: 'nobody@example.test', permissions: [] }, { token: a.ownerToken });
    expect(codeOf(unknown)).toBe('not_found');
    expect(unknown.body.errors[0].extensions.errors).toEqual([expect.objectContaining({ field: 'email', code: 'not_found' })]);
    const bad = await t.graphql(ADD, { storeId: a.storeId, email: newcomer.email, permissions: ['root'] }, { token: a.ownerToken });
    expect(codeOf(bad)).toBe('validation_failed');
    expect(codeOf(await t.graphql(UPDATE, { storeId: a.storeId, userId: a.ownerId, permissions: [] }, { token: a.ownerToken }))).toBe('conflict');
    expect(codeOf(await t.graphql(REMOVE, { storeId: a.storeId, userId: a.ownerId }, { token: a.ownerToken }))).toBe('conflict');
    expect(codeOf(await t.graphql(UPDATE, { storeId: a.storeId, userId: newcomer.id, permissions: [] }, { token: a.ownerToken }))).toBe('not_found');
    expect(codeOf(await t.graphql(ADD, { storeId: a.storeId, email: newcomer.email, permissions: [] }, { token: a.staffToken }))).toBe('forbidden');
    expect(await db().membership.count({ where: { storeId: a.storeId, userId: newcomer.id } })).toBe(0);
  });
});
