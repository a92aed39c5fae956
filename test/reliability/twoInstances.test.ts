import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { exited, listening, randomPort, spawnServer } from '../helpers/serverProcess';
import { type LocalS3, startLocalS3 } from '../helpers/s3';
import { adminQuery, newTempDir, templateStatePath, testDatabaseUrl, withDatabase } from '../helpers/templates';
import { type Receiver, startReceiver, verifyDelivery } from '../helpers/webhooks';
import { filePart, form, makeImage } from '../images/images';

/**
 * The deployment docs/operations.md's "Deploy" section describes, in small: two real
 * service processes behind no balancer at all (the test talks to each in
 * turn), one PostgreSQL database, one Redis, one S3-compatible bucket (s3rver),
 * each instance running its own webhook worker. Whatever a client does through
 * one instance, the other sees at once: the product, its image's bytes, the
 * public API's rate limit; and every event is delivered to the webhook exactly
 * once, signed (checked with the `standardwebhooks` package).
 */
jest.setTimeout(180_000);

const url = testDatabaseUrl();
const redisUrl = process.env.REDIS_URL;

(url && redisUrl ? describe : describe.skip)('two instances on PostgreSQL, Redis and S3', () => {
  const name = `catalog_pair_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  let s3: LocalS3;
  let receiver: Receiver;
  let instances: { base: string; child: ReturnType<typeof spawnServer> }[] = [];

  beforeAll(async () => {
    const { template } = JSON.parse(readFileSync(templateStatePath(), 'utf8')) as { template: string };
    await adminQuery(url!, `CREATE DATABASE ${name} TEMPLATE ${template}`);
    s3 = await startLocalS3();
    receiver = await startReceiver();
    const env = {
      ...process.env,
      ...s3.env,
      NODE_OPTIONS: '',
      DATABASE_URL: withDatabase(url!, name),
      REDIS_URL: redisUrl!,
      // Keys of this run only, so parallel test files sharing the Redis server do not meet.
      RATE_LIMIT_REDIS_PREFIX: `pair-${name}:`,
      RATE_LIMIT_TEST_PER_SECOND: '0.2',
      RATE_LIMIT_TEST_BURST: '3',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WORKER_POLL_MS: '50',
    };
    // The first seeds the demo store; the second finds it seeded.
    for (const seed of ['true', 'false']) {
      const port = randomPort();
      // Each its own data directory, as on separate machines: only the bucket is shared.
      const child = spawnServer({ ...env, PORT: String(port), SEED_DEMO: seed, DATA_DIR: newTempDir('catalog-instance-') });
      await listening(child);
      instances.push({ base: `http://127.0.0.1:${port}`, child });
    }
  });
  afterAll(async () => {
    await Promise.all(
      instances.map(({ child }) => {
        const done = exited(child);
        child.kill('SIGTERM');
        return done;
      }),
    );
    await receiver?.close();
    await s3?.close();
    await adminQuery(url!, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  const call = async (instance: number, method: string, path: string, opts: { token?: string; json?: unknown; body?: FormData } = {}) => {
    const headers: Record<string, string> = {};
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.json !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(instances[instance].base + path, { method, headers, body: opts.json !== undefined ? JSON.stringify(opts.json) : opts.body });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  };
  const graphql = async (instance: number, query: string, variables: Record<string, unknown>, token?: string) => {
    const res = await call(instance, 'POST', '/graphql', { token, json: { query, variables } });
    expect(res.body.errors).toBeUndefined();
    return res.body.data;
  };

  it('a client sees one service: writes, images, rate limits and webhooks across both instances', async () => {
    const { login } = await graphql(1, 'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }', { e: 'owner@demo.store', p: 'demo-password' });
    const token = login.token as string;
    const { viewer } = await graphql(0, '{ viewer { memberships { store { id } } } }', {}, token);
    const storeId = viewer.memberships[0].store.id as string;
    const store = `/api/v1/merchant/stores/${storeId}`;

    // A webhook endpoint registered through instance 0.
    const endpoint = await call(0, 'POST', `${store}/webhook-endpoints`, { token, json: { url: receiver.url, event_types: ['product.created', 'product.image_added'] } });
    expect(endpoint.status).toBe(201);
    const secret = endpoint.body.data.secret as string;

    // Created through instance 1, read through instance 0.
    const created = await call(1, 'POST', `${store}/products`, { token, json: { name: 'Two-instance lamp', price: 4900, category_slugs: ['home'] } });
    expect(created.status).toBe(201);
    const productId = created.body.data.id as string;
    expect((await call(0, 'GET', `${store}/products/${productId}`, { token })).body.data.name).toBe('Two-instance lamp');

    // An image uploaded through instance 0 lands in the shared bucket; instance 1 serves its bytes.
    const image = form([{ name: 'product_id', value: productId }, filePart(await makeImage('png', 32, 24), 'lamp.png', 'image/png')]);
    const uploaded = await call(0, 'POST', `${store}/products/images`, { token, body: image });
    expect(uploaded.status).toBe(201);
    const sha256 = uploaded.body.data.sha256 as string;
    const read = await call(1, 'GET', `${store}/products/${productId}`, { token });
    expect(read.body.data.images).toHaveLength(1);
    const servedBy1 = await fetch(`${instances[1].base}/uploads/${sha256}.png`);
    expect(servedBy1.status).toBe(200);
    expect(createHash('sha256').update(Buffer.from(await servedBy1.arrayBuffer())).digest('hex')).toBe(sha256);

    // The public API's rate limit is one budget in Redis: a burst of 3 spent across both instances.
    const key = await graphql(
      0,
      'mutation($s: ID!, $i: ApiKeyCreateInput!) { createApiKey(storeId: $s, input: $i) { secret } }',
      { s: storeId, i: { name: 'pair', mode: 'test', type: 'secret', scopes: ['products:read'] } },
      token,
    );
    const statuses: number[] = [];
    for (const instance of [0, 1, 0, 1]) statuses.push((await call(instance, 'GET', '/api/public/v1/products', { token: key.createApiKey.secret })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);

    // Both workers deliver; each event arrives once, signed with the endpoint's secret.
    const delivered = await receiver.waitFor(2, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 500)); // a duplicate would arrive within this
    expect(receiver.requests).toHaveLength(2);
    const payloads = delivered.map((r) => verifyDelivery(secret, r));
    expect(payloads.map((p) => p.type).sort()).toEqual(['product.created', 'product.image_added']);
    expect(new Set(delivered.map((r) => r.headers['webhook-id'])).size).toBe(2);
    for (const p of payloads) expect(p.data).toMatchObject({ resource: { type: 'product', id: productId }, data: { id: productId } });
  });
});
