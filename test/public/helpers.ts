import { newCredential, sha256Hex } from '../../src/access/auth/secrets';
import { db } from '../../src/platform/db/client';
import type { StoreFixture } from '../helpers/fixtures';
import type { TestResponse, TestServer } from '../helpers/harness';

/** A clock the test moves by hand: credential expiry and rate limits read it instead of the wall clock. */
export class TestClock {
  private t: number;
  constructor(start = Date.now()) {
    this.t = start;
  }
  now = () => new Date(this.t);
  set(d: Date | number) {
    this.t = typeof d === 'number' ? d : d.getTime();
  }
  advance(ms: number) {
    this.t += ms;
  }
}

export const API_KEY_FIELDS = 'id name type mode scopes redactedKey createdAt lastUsedAt expiresAt revokedAt rolledFromId createdBy { id }';

export const CREATE_KEY = `mutation($storeId: ID!, $input: ApiKeyCreateInput!) {
  createApiKey(storeId: $storeId, input: $input) { secret apiKey { ${API_KEY_FIELDS} } }
}`;

export interface KeyInput {
  type: 'system' | 'secret' | 'publishable';
  mode: 'test' | 'live';
  name?: string;
  scopes?: string[];
  expiresAt?: string;
}

/** Creates an API key through GraphQL as the store owner; fails the test on any error. */
export async function createKey(t: TestServer, store: StoreFixture, input: KeyInput, token = store.ownerToken) {
  const res = await t.graphql(CREATE_KEY, { storeId: store.storeId, input: { name: `${input.type} ${input.mode}`, ...input } }, { token });
  if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
  return res.body.data.createApiKey as { secret: string; apiKey: Record<string, any> };
}

/**
 * An OAuth access token for the store, made as the OAuth flow leaves it in the
 * database (app, grant, hashed access token), so the credential matrix can
 * include svc_oat_ tokens without walking the consent screens.
 */
export async function createOAuthAccessToken(store: StoreFixture, mode: 'test' | 'live', scopes = ['public:read']) {
  const app = await db().oAuthApp.create({
    data: {
      ownerId: store.ownerId, name: 'Matrix app', clientId: newCredential('test_client_'), clientSecretHash: sha256Hex('unused'),
      redirectUris: ['https://app.example.test/cb'], allowedScopes: scopes,
    },
  });
  const grant = await db().oAuthGrant.create({
    data: { appId: app.id, storeId: store.storeId, userId: store.ownerId, mode, scopes, redirectUri: 'https://app.example.test/cb', codeChallenge: 'x' },
  });
  const token = newCredential('svc_oat_');
  await db().oAuthToken.create({ data: { grantId: grant.id, kind: 'access', tokenHash: sha256Hex(token), expiresAt: new Date(Date.now() + 3600_000) } });
  return { token, appId: app.id };
}

export interface CallOptions {
  /** Sent as Authorization: Bearer (default) or X-API-Key. */
  key?: string;
  via?: 'bearer' | 'x-api-key';
  modeHeader?: string;
  modeQuery?: string;
  headers?: Record<string, string>;
}

/** GET on the public API the way an integration calls it. */
export function publicGet(t: TestServer, path: string, o: CallOptions = {}): Promise<TestResponse> {
  const headers: Record<string, string> = { ...(o.headers ?? {}) };
  if (o.key && (o.via ?? 'bearer') === 'bearer') headers.authorization = `Bearer ${o.key}`;
  if (o.key && o.via === 'x-api-key') headers['x-api-key'] = o.key;
  if (o.modeHeader !== undefined) headers['x-service-mode'] = o.modeHeader;
  let url = `/api/public/v1${path}`;
  if (o.modeQuery !== undefined) url += `${url.includes('?') ? '&' : '?'}mode=${encodeURIComponent(o.modeQuery)}`;
  return t.request('GET', url, { headers });
}
