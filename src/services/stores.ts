import { z } from 'zod';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { forgetVerifiedUser, issueDashboardToken } from '../auth/dashboardTokens';
import { PERMISSIONS } from '../auth/permissions';
import { db } from '../db/client';
import { AppError, notFound } from '../errors';
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
  currency: z.string().trim().toUpperCase().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as USD'),
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

/** Adds a staff member, or replaces the permissions of an existing one. */
export async function addMember(input: z.input<typeof AddMember>) {
  const data = parseInput(AddMember, input);
  const store = await db().store.findUnique({ where: { id: data.storeId }, select: { ownerId: true } });
  if (!store) throw notFound('Store');
  const membership = await db().membership.upsert({
    where: { storeId_userId: { storeId: data.storeId, userId: data.userId } },
    create: { ...data, role: store.ownerId === data.userId ? 'owner' : 'staff' },
    update: { permissions: data.permissions },
  });
  forgetVerifiedUser(data.userId);
  return membership;
}

/** Email + password login; returns a fresh dashboard token. */
export async function login(email: string, password: string) {
  const user = await db().user.findUnique({ where: { email: email.trim().toLowerCase() } });
  const ok = await verifyPassword(user?.passwordHash, password);
  if (!user || !ok) throw new AppError('invalid_credentials', 'Email or password is incorrect');
  const { token } = await issueDashboardToken(user.id, { name: 'login' });
  return { token, user };
}
