import { randomUUID } from 'node:crypto';
import { testContext as ctx } from '../helpers/context';
import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { authenticateDashboardToken } from '../../src/access/auth/dashboardTokens';
import { db } from '../../src/platform/db/client';
import { applyMigrations, MIGRATIONS_DIR, MigrationError } from '../../src/platform/db/migrate';
import { ISO_4217_CURRENCIES } from '../../src/kernel/currencies';
import { SUPPORTED_COUNTRIES } from '../../src/platform/reference/supportedCountries';
import { createCategory, listCategories } from '../../src/catalog/services/categories';
import { createDashboardToken, listDashboardTokens, revokeDashboardTokenBy } from '../../src/access/services/dashboardTokens';
import { createStore, createUser, findStore, findUser, listMembers } from '../../src/access/services/stores';
import { openTestDatabase } from '../helpers/harness';
import { newTempDir, openEmptyDatabase } from '../helpers/templates';

let database: Awaited<ReturnType<typeof openTestDatabase>>;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
  await database.dropDatabase();
});

let n = 0;
const email = () => `u${++n}-${Date.now().toString(36)}@example.test`;
const newUser = () => createUser(ctx(), { email: email(), name: 'User' });
const newStore = async (name = `Store ${randomUUID()}`) => createStore(ctx(), { name, currency: 'EUR', ownerId: (await newUser()).id });

describe('store currency (ISO 4217)', () => {
  it('accepts every currency a supported country charges in, in any case', async () => {
    const currencies = [...new Set(SUPPORTED_COUNTRIES.flatMap((c) => c.supportedCurrencies))];
    expect(currencies.filter((c) => !ISO_4217_CURRENCIES.includes(c))).toEqual([]);
    const owner = await newUser();
    expect((await createStore(ctx(), { name: 'Lower', currency: ' jpy ', ownerId: owner.id })).currency).toBe('JPY');
  });

  it.each(['XYZ', 'EURO', 'E1R', 'HRK', 'XAU', 'XXX', ''])('refuses %j with 422 naming the field', async (currency) => {
    const owner = await newUser();
    await expect(createStore(ctx(), { name: 'Bad', currency, ownerId: owner.id })).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [{ field: 'currency', message: 'must be the ISO 4217 code of a currency in circulation, such as USD or EUR' }],
    });
  });
});

describe('categories', () => {
  it('are created by the service with a slug in the SEO slug format and a name like a product name', async () => {
    const store = await newStore();
    const created = await createCategory(ctx(), { storeId: store.id, slug: ' running-shoes ', name: ' Running shoes ' });
    expect(created).toMatchObject({ storeId: store.id, slug: 'running-shoes', name: 'Running shoes' });
    for (const slug of ['Running', 'two--hyphens', '-lead', 'trail-', 'ü', 'a b', '', 'x'.repeat(129)]) {
      await expect(createCategory(ctx(), { storeId: store.id, slug, name: 'X' })).rejects.toMatchObject({ code: 'validation_failed', errors: [expect.objectContaining({ field: 'slug' })] });
    }
    for (const name of ['', '   ', 'x'.repeat(256)]) {
      await expect(createCategory(ctx(), { storeId: store.id, slug: 'named', name })).rejects.toMatchObject({ code: 'validation_failed', errors: [expect.objectContaining({ field: 'name' })] });
    }
    expect((await listCategories(ctx(), store.id)).map((c) => c.slug)).toEqual(['running-shoes']);
  });

  it('are unique per store whatever the case, also against rows written before slugs had to be lowercase', async () => {
    const store = await newStore();
    const other = await newStore();
    await createCategory(ctx(), { storeId: store.id, slug: 'hats', name: 'Hats' });
    await expect(createCategory(ctx(), { storeId: store.id, slug: 'hats', name: 'More hats' })).rejects.toMatchObject({ code: 'slug_taken', status: 409, details: { slug: 'hats' } });
    await createCategory(ctx(), { storeId: other.id, slug: 'hats', name: 'Hats' });

    // A legacy capitalised slug, written around the service as the old CLI could.
    await db().category.create({ data: { storeId: store.id, slug: 'Shoes', name: 'Shoes' } });
    await expect(createCategory(ctx(), { storeId: store.id, slug: 'shoes', name: 'Shoes' })).rejects.toMatchObject({ code: 'slug_taken' });
    await expect(db().category.create({ data: { storeId: store.id, slug: 'SHOES', name: 'Shoes' } })).rejects.toThrow();
  });

  it('need an existing store: 404, not a foreign-key failure', async () => {
    for (const storeId of [randomUUID(), 'not-a-uuid']) {
      await expect(createCategory(ctx(), { storeId, slug: 'x', name: 'X' })).rejects.toMatchObject({ code: 'not_found', message: 'Store not found' });
      await expect(listCategories(ctx(), storeId)).rejects.toMatchObject({ code: 'not_found' });
    }
  });
});

describe('references the CLI accepts', () => {
  it('a store by id, or by its name (any case) while no other store has it', async () => {
    const name = `Corner shop ${randomUUID()}`;
    const store = await newStore(name);
    expect((await findStore(ctx(), store.id)).id).toBe(store.id);
    expect((await findStore(ctx(), ` ${name.toUpperCase()} `)).id).toBe(store.id);
    await expect(findStore(ctx(), randomUUID())).rejects.toMatchObject({ code: 'not_found' });
    await expect(findStore(ctx(), 'no such store')).rejects.toMatchObject({ code: 'not_found', message: 'No store with id or name "no such store"' });

    const twin = await newStore(name);
    await expect(findStore(ctx(), name)).rejects.toMatchObject({
      code: 'conflict',
      message: `Several stores are named "${name}"; name one by its id: ${store.id}, ${twin.id}`,
    });
    expect((await findStore(ctx(), twin.id)).id).toBe(twin.id);
  });

  it('a user by id or email (any case)', async () => {
    const user = await newUser();
    expect((await findUser(ctx(), user.id)).id).toBe(user.id);
    expect((await findUser(ctx(), user.email.toUpperCase())).id).toBe(user.id);
    await expect(findUser(ctx(), 'nobody@example.test')).rejects.toMatchObject({ code: 'not_found', message: 'No user with email "nobody@example.test"' });
    await expect(findUser(ctx(), 'nobody')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('members are listed owner first, with their email', async () => {
    const store = await newStore();
    const members = await listMembers(ctx(), store.id);
    expect(members).toEqual([expect.objectContaining({ role: 'owner', user: { email: expect.stringContaining('@example.test'), name: 'User' } })]);
  });
});

describe('dashboard token revocation', () => {
  it('by id or by the token itself, idempotently; the token stops authenticating', async () => {
    const user = await newUser();
    const a = await createDashboardToken(ctx(), { userId: user.id, name: 'a' });
    const b = await createDashboardToken(ctx(), { userId: user.id, name: 'b' });
    await expect(authenticateDashboardToken(ctx(), a.token)).resolves.toMatchObject({ userId: user.id });

    const revoked = await revokeDashboardTokenBy(ctx(), { id: a.record.id });
    expect(revoked.revokedAt).toBeInstanceOf(Date);
    expect(await revokeDashboardTokenBy(ctx(), { token: a.token })).toEqual(revoked);
    await expect(authenticateDashboardToken(ctx(), a.token)).rejects.toMatchObject({ code: 'invalid_token' });

    expect((await revokeDashboardTokenBy(ctx(), { token: ` ${b.token} ` })).revokedAt).toBeInstanceOf(Date);
    expect((await listDashboardTokens(ctx(), user.id)).map((t) => [t.name, t.revokedAt !== null])).toEqual([
      ['b', true],
      ['a', true],
    ]);

    await expect(revokeDashboardTokenBy(ctx(), { id: randomUUID() })).rejects.toMatchObject({ code: 'not_found' });
    await expect(revokeDashboardTokenBy(ctx(), { id: 'nope' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(revokeDashboardTokenBy(ctx(), { token: 'svc_dash_unknown' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('refuses an expiry in the past', async () => {
    const user = await newUser();
    await expect(createDashboardToken(ctx(), { userId: user.id, expiresAt: new Date(Date.now() - 1000) })).rejects.toMatchObject({ code: 'validation_failed' });
  });
});

describe('migration 20261123170000_category_slug_case_insensitive', () => {
  const MIGRATION = '20261123170000_category_slug_case_insensitive';

  it('names slugs that differ only in case instead of failing on a bare index error, and changes nothing', async () => {
    const d = await openEmptyDatabase();
    const dir = newTempDir('catalog-migrations-');
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    const later = readdirSync(dir).filter((m) => m >= MIGRATION);
    for (const m of later) rmSync(path.join(dir, m), { recursive: true });
    try {
      await applyMigrations(d.factory(), { migrationsDir: dir });
      await d.query(`INSERT INTO users (id, email, name) VALUES ('00000000-0000-4000-8000-000000000001', 'legacy@example.test', 'Legacy')`);
      await d.query(`INSERT INTO stores (id, name, currency, owner_id) VALUES ('00000000-0000-4000-8000-000000000002', 'Legacy', 'EUR', '00000000-0000-4000-8000-000000000001')`);
      await d.query(`INSERT INTO categories (id, store_id, slug, name) VALUES
        ('00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000002', 'Shoes', 'Shoes'),
        ('00000000-0000-4000-8000-000000000004', '00000000-0000-4000-8000-000000000002', 'shoes', 'shoes'),
        ('00000000-0000-4000-8000-000000000005', '00000000-0000-4000-8000-000000000002', 'Hats', 'Hats')`);

      mkdirSync(path.join(dir, MIGRATION));
      cpSync(path.join(MIGRATIONS_DIR, MIGRATION), path.join(dir, MIGRATION), { recursive: true });
      const run = applyMigrations(d.factory(), { migrationsDir: dir });
      await expect(run).rejects.toThrow(MigrationError);
      await expect(run).rejects.toThrow(
        `Migration ${MIGRATION} failed and was rolled back: category slugs that differ only in case: store 00000000-0000-4000-8000-000000000002: 'Shoes', 'shoes'.`,
      );
      expect(await d.query(`SELECT slug FROM categories ORDER BY slug`)).toEqual([{ slug: 'Hats' }, { slug: 'Shoes' }, { slug: 'shoes' }]);
    } finally {
      await d.close();
    }
  });
});
