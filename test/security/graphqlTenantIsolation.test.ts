import { issueDashboardToken } from '../../src/access/auth/dashboardTokens';
import { addMember, createStore, createUser } from '../../src/access/services/stores';
import { testContext } from '../helpers/context';
import { startTestServer, type TestServer } from '../helpers/harness';

/**
 * Users are reached through a store (an API key's creator): what they show of
 * their memberships must not name the other stores they belong to.
 */
let t: TestServer;
let seq = 0;
const unique = () => `${Date.now().toString(36)}${seq++}`;

async function user(name: string) {
  const u = await createUser(testContext(), { email: `${name}-${unique()}@example.test`, name });
  return { id: u.id, token: (await issueDashboardToken(testContext(), u.id)).token };
}
const store = async (name: string, ownerId: string) => (await createStore(testContext(), { name: `${name} ${unique()}`, currency: 'EUR', ownerId })).id;

const KEYS = `query($s: ID!) { apiKeys(storeId: $s) { name createdBy { id memberships { role store { id name } } } } }`;
const CREATE = `mutation($s: ID!, $name: String!) { createApiKey(storeId: $s, input: { name: $name, type: publishable, mode: test }) { apiKey { id } } }`;

/** The stores each key creator shows through the store's API key list, by key name. */
async function creatorStores(token: string, storeId: string): Promise<Record<string, string[]>> {
  const res = await t.graphql(KEYS, { s: storeId }, { token });
  expect(res.body.errors).toBeUndefined();
  return Object.fromEntries(res.body.data.apiKeys.map((k: any) => [k.name, k.createdBy.memberships.map((m: any) => m.store.id).sort()]));
}

let alice: { id: string; token: string };
let carol: { id: string; token: string };
let storeA: string;
let aliceOther: string;
let carolOwn: string;

beforeAll(async () => {
  t = await startTestServer();
  // Alice owns A and another store; Carol owns her store and manages A's API keys.
  alice = await user('alice');
  carol = await user('carol');
  storeA = await store('A', alice.id);
  aliceOther = await store('Alice other', alice.id);
  carolOwn = await store('Carol own', carol.id);
  await addMember(testContext(), { storeId: storeA, userId: carol.id, permissions: ['manage_api_keys'] });
  for (const [token, name] of [[alice.token, 'by alice'], [carol.token, 'by carol']]) {
    const res = await t.graphql(CREATE, { s: storeA, name }, { token });
    expect(res.body.errors).toBeUndefined();
  }
});
afterAll(() => t?.close());

it("A's owner sees, of a key creator from another store, only the creator's membership in A", async () => {
  const seen = await creatorStores(alice.token, storeA);
  expect(seen['by carol']).toEqual([storeA]);
  expect(JSON.stringify(seen)).not.toContain(carolOwn);
});

it("a staff member of A sees, of A's owner, only the owner's membership in A", async () => {
  const seen = await creatorStores(carol.token, storeA);
  expect(seen['by alice']).toEqual([storeA]);
  expect(JSON.stringify(seen)).not.toContain(aliceOther);
});

it('each user still sees all of their own memberships, through viewer and as a key creator', async () => {
  const viewer = await t.graphql('{ viewer { memberships { store { id } } } }', undefined, { token: carol.token });
  expect(viewer.body.data.viewer.memberships.map((m: any) => m.store.id).sort()).toEqual([storeA, carolOwn].sort());
  expect((await creatorStores(carol.token, storeA))['by carol']).toEqual([storeA, carolOwn].sort());
  expect((await creatorStores(alice.token, storeA))['by alice']).toEqual([storeA, aliceOther].sort());
});

it('a member of A without manage_api_keys in a shared store sees nothing more of that store', async () => {
  // Carol becomes a plain member of Alice's other store: she still sees only Alice's membership in A.
  await addMember(testContext(), { storeId: aliceOther, userId: carol.id, permissions: [] });
  const token = (await issueDashboardToken(testContext(), carol.id)).token;
  expect((await creatorStores(token, storeA))['by alice']).toEqual([storeA]);
});
