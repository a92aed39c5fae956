import { z } from 'zod';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { forgetVerifiedUser, issueDashboardToken } from '../auth/dashboardTokens';
import { PERMISSIONS } from '../auth/permissions';
import { db } from '../db/client';
import { AppError, notFound } from '../errors';
import { isIso4217Currency } from '../reference/currencies';
import { isUuid } from './products';
import { parseInput } from './validation';

const CreateUser = z.object({
  email: z.string().trim().toLowerCase().email(),
  name: z.string().trim().min(1).max(255),
  password: z.string().min(8).max(1024).optional(),
});

export async function createUser(input: z.input<typeof CreateUser>) {
  const data = parseInput(CreateUser, input);
  const exists = await db().user.findUnique({ where: { email: data.email }, select: { id: true } });
  if (exists) throw new AppError('conflict', `A user with email ${data.email} already exists`);
  return db().user.create({
    data: { email: data.email, name: data.name, passwordHash: data.password ? await hashPassword(data.password) : null },
  });
}

const CreateStore = z.object({
  name: z.string().trim().min(1).max(255),
  currency: z
    .string()
    .trim()
    .toUpperCase()
    .refine(isIso4217Currency, 'must be the ISO 4217 code of a currency in circulation, such as USD or EUR'),
  ownerId: z.string().uuid(),
});

/** Creates a store and its owner membership in one transaction. */
export async function createStore(input: z.input<typeof CreateStore>) {
  const data = parseInput(CreateStore, input);
  const store = await db().$transaction(async (tx) => {
    const created = await tx.store.create({ data });
    await tx.membership.create({ data: { storeId: created.id, userId: data.ownerId, role: 'owner', permissions: [...PERMISSIONS] } });
    return created;
  });
  forgetVerifiedUser(data.ownerId);
  return store;
}

const AddMember = z.object({
  storeId: z.string().uuid(),
  userId: z.string().uuid(),
  permissions: z.array(z.enum(PERMISSIONS)).default([]),
});

const memberInclude = { user: { select: { email: true, name: true } } } as const;

/** Adds a staff member, or replaces the permissions of an existing one. */
export async function addMember(input: z.input<typeof AddMember>) {
  const data = parseInput(AddMember, input);
  const store = await db().store.findUnique({ where: { id: data.storeId }, select: { ownerId: true } });
  if (!store) throw notFound('Store');
  const membership = await db().membership.upsert({
    where: { storeId_userId: { storeId: data.storeId, userId: data.userId } },
    create: { ...data, role: store.ownerId === data.userId ? 'owner' : 'staff' },
    update: { permissions: data.permissions },
    include: memberInclude,
  });
  forgetVerifiedUser(data.userId);
  return membership;
}

/** The store's members with their email and name: the owner first, then staff by when they joined. */
export async function listMembers(storeId: string) {
  await findStore(storeId);
  return db().membership.findMany({ where: { storeId }, include: memberInclude, orderBy: [{ role: 'asc' }, { createdAt: 'asc' }] });
}

/** Every user, oldest first; whether a password is set, never its hash. */
export async function listUsers() {
  const users = await db().user.findMany({
    orderBy: { createdAt: 'asc' },
    select: { id: true, email: true, name: true, passwordHash: true, createdAt: true },
  });
  return users.map(({ passwordHash, ...u }) => ({ ...u, hasPassword: passwordHash !== null }));
}

/** Every store, oldest first; with `ownerId`, that user's stores only. */
export function listStores(opts: { ownerId?: string } = {}) {
  return db().store.findMany({ where: opts.ownerId ? { ownerId: opts.ownerId } : {}, orderBy: { createdAt: 'asc' } });
}

/** A user by id or by email (case-insensitive), or 404. */
export async function findUser(reference: string) {
  const ref = reference.trim();
  const user = ref.includes('@')
    ? await db().user.findUnique({ where: { email: ref.toLowerCase() } })
    : isUuid(ref)
      ? await db().user.findUnique({ where: { id: ref } })
      : null;
  if (!user) throw new AppError('not_found', `No user with ${ref.includes('@') ? 'email' : 'id'} "${ref}"`);
  return user;
}

/**
 * A store by id, or by name (case-insensitive) when exactly one store has
 * that name; 404 when none does, 409 naming the ids when several do.
 */
export async function findStore(reference: string) {
  const ref = reference.trim();
  if (isUuid(ref)) {
    const store = await db().store.findUnique({ where: { id: ref } });
    if (!store) throw new AppError('not_found', `No store with id "${ref}"`);
    return store;
  }
  const stores = await db().store.findMany({ where: { name: { equals: ref, mode: 'insensitive' } }, orderBy: { createdAt: 'asc' }, take: 10 });
  if (stores.length === 0) throw new AppError('not_found', `No store with id or name "${ref}"`);
  if (stores.length > 1) {
    throw new AppError('conflict', `Several stores are named "${ref}"; name one by its id: ${stores.map((s) => s.id).join(', ')}`, {
      details: { store_ids: stores.map((s) => s.id) },
    });
  }
  return stores[0];
}

/** Email + password login; returns a fresh dashboard token. */
export async function login(email: string, password: string) {
  const user = await db().user.findUnique({ where: { email: email.trim().toLowerCase() } });
  const ok = await verifyPassword(user?.passwordHash, password);
  if (!user || !ok) throw new AppError('invalid_credentials', 'Email or password is incorrect');
  const { token } = await issueDashboardToken(user.id, { name: 'login' });
  return { token, user };
}
