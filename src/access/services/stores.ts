/** The user and store service: users, stores, members, and password login. */

import { z } from 'zod';
import { forgetVerifiedUser, issueDashboardToken } from '../auth/dashboardTokens';
import { hashPassword, verifyPassword } from '../auth/passwords';
import type { RequestContext } from '../../platform/context';
import { PERMISSIONS } from '../../kernel/access';
import { isUuid } from '../../kernel/ids';
import { emit, transaction, type TransactionContext } from '../../platform/outbox/outbox';
import { AppError, notFound } from '../../platform/errors';
import { isIso4217Currency } from '../../kernel/currencies';
import { memberView, storeView } from './views';
import { parseInput } from '../../platform/validation';

const CreateUser = z.object({
  email: z.string().trim().toLowerCase().email(),
  name: z.string().trim().min(1).max(255),
  password: z.string().min(8).max(1024).optional(),
});

/** Creates a dashboard user. Users belong to no store, so no store history records them. */
export async function createUser(ctx: RequestContext, input: z.input<typeof CreateUser>) {
  const data = parseInput(CreateUser, input);
  const exists = await ctx.db.user.findUnique({ where: { email: data.email }, select: { id: true } });
  if (exists) throw new AppError('conflict', `A user with email ${data.email} already exists`);
  return ctx.db.user.create({
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

type MemberRow = Parameters<typeof memberView>[0];

/** A member is named by the user's id: removing and adding a user again continues one history. */
const emitMemberEvent = (t: TransactionContext, type: 'member.added' | 'member.updated' | 'member.removed', member: MemberRow, before?: MemberRow) =>
  emit(t, { type, storeId: member.storeId, mode: 'live', resource: { type: 'member', id: member.userId }, data: memberView(member), before: before && memberView(before) });

/** Creates a store and its owner membership in one transaction. */
export async function createStore(ctx: RequestContext, input: z.input<typeof CreateStore>) {
  const data = parseInput(CreateStore, input);
  const store = await transaction(ctx, async (t) => {
    const created = await t.tx.store.create({ data });
    const owner = await t.tx.membership.create({
      data: { storeId: created.id, userId: data.ownerId, role: 'owner', permissions: [...PERMISSIONS] },
      include: memberInclude,
    });
    emit(t, { type: 'store.created', storeId: created.id, mode: 'live', resource: { type: 'store', id: created.id }, data: storeView(created) });
    emitMemberEvent(t, 'member.added', owner);
    return created;
  });
  forgetVerifiedUser(data.ownerId);
  return store;
}

const AddMember = z.object({
  storeId: z.string().uuid(),
  userId: z.string().uuid(),
  // Canonical order, no duplicates: the same set always reads (and compares) the same.
  permissions: z
    .array(z.enum(PERMISSIONS))
    .default([])
    .transform((ps) => PERMISSIONS.filter((p) => ps.includes(p))),
});

const memberInclude = { user: { select: { email: true, name: true } } } as const;

/**
 * Adds a staff member, or replaces the permissions of an existing one (the same permissions again change nothing).
 * `existing`: `refuse` answers 409 for a user who is already a member (adding is then only adding);
 * `required` answers 404 for one who is not and 409 for the owner (changing is then only changing a staff member's permissions).
 */
export async function addMember(ctx: RequestContext, input: z.input<typeof AddMember>, opts: { existing?: 'refuse' | 'required' } = {}) {
  const data = parseInput(AddMember, input);
  const store = await ctx.db.store.findUnique({ where: { id: data.storeId }, select: { ownerId: true } });
  if (!store) throw notFound('Store');
  const membership = await transaction(ctx, async (t) => {
    const where = { storeId_userId: { storeId: data.storeId, userId: data.userId } };
    const before = await t.tx.membership.findUnique({ where, include: memberInclude });
    if (before && opts.existing === 'refuse') throw new AppError('conflict', `${before.user.email} is already a member of this store; change their permissions instead`);
    if (!before && opts.existing === 'required') throw notFound('Member');
    if (before?.role === 'owner' && opts.existing === 'required') throw new AppError('conflict', "The owner's permissions are all of them and cannot be changed");
    if (!before) {
      const added = await t.tx.membership.create({ data: { ...data, role: store.ownerId === data.userId ? 'owner' : 'staff' }, include: memberInclude });
      emitMemberEvent(t, 'member.added', added);
      return added;
    }
    const { permissions } = data;
    if (permissions.length === before.permissions.length && permissions.every((p) => before.permissions.includes(p))) return before;
    const updated = await t.tx.membership.update({ where, data: { permissions }, include: memberInclude });
    emitMemberEvent(t, 'member.updated', updated, before);
    return updated;
  });
  forgetVerifiedUser(data.userId);
  return membership;
}

/** Removes a staff member from a store; the owner cannot be removed. */
export async function removeMember(ctx: RequestContext, storeId: string, userId: string) {
  const where = { storeId_userId: { storeId, userId } };
  const membership = await transaction(ctx, async (t) => {
    const member = isUuid(storeId) && isUuid(userId) ? await t.tx.membership.findUnique({ where, include: memberInclude }) : null;
    if (!member) throw notFound('Member');
    if (member.role === 'owner') throw new AppError('conflict', "The store's owner cannot be removed from it");
    await t.tx.membership.delete({ where });
    emitMemberEvent(t, 'member.removed', member);
    return member;
  });
  forgetVerifiedUser(userId);
  return membership;
}

/** The store's members with their email and name: the owner first, then staff by when they joined. */
export async function listMembers(ctx: RequestContext, storeId: string) {
  await findStore(ctx, storeId);
  return ctx.db.membership.findMany({ where: { storeId }, include: memberInclude, orderBy: [{ role: 'asc' }, { createdAt: 'asc' }] });
}

/** Every user, oldest first; whether a password is set, never its hash. */
export async function listUsers(ctx: RequestContext) {
  const users = await ctx.db.user.findMany({
    orderBy: { createdAt: 'asc' },
    select: { id: true, email: true, name: true, passwordHash: true, createdAt: true },
  });
  return users.map(({ passwordHash, ...u }) => ({ ...u, hasPassword: passwordHash !== null }));
}

/** Every store, oldest first; with `ownerId`, that user's stores only. */
export function listStores(ctx: RequestContext, opts: { ownerId?: string } = {}) {
  return ctx.db.store.findMany({ where: opts.ownerId ? { ownerId: opts.ownerId } : {}, orderBy: { createdAt: 'asc' } });
}

/** A user by id or by email (case-insensitive), or 404. */
export async function findUser(ctx: RequestContext, reference: string) {
  const ref = reference.trim();
  const user = ref.includes('@')
    ? await ctx.db.user.findUnique({ where: { email: ref.toLowerCase() } })
    : isUuid(ref)
      ? await ctx.db.user.findUnique({ where: { id: ref } })
      : null;
  if (!user) throw new AppError('not_found', `No user with ${ref.includes('@') ? 'email' : 'id'} "${ref}"`);
  return user;
}

/**
 * A store by id, or by name (case-insensitive) when exactly one store has
 * that name; 404 when none does, 409 naming the ids when several do.
 */
export async function findStore(ctx: RequestContext, reference: string) {
  const ref = reference.trim();
  if (isUuid(ref)) {
    const store = await ctx.db.store.findUnique({ where: { id: ref } });
    if (!store) throw new AppError('not_found', `No store with id "${ref}"`);
    return store;
  }
  const stores = await ctx.db.store.findMany({ where: { name: { equals: ref, mode: 'insensitive' } }, orderBy: { createdAt: 'asc' }, take: 10 });
  if (stores.length === 0) throw new AppError('not_found', `No store with id or name "${ref}"`);
  if (stores.length > 1) {
    throw new AppError('conflict', `Several stores are named "${ref}"; name one by its id: ${stores.map((s) => s.id).join(', ')}`, {
      details: { store_ids: stores.map((s) => s.id) },
    });
  }
  return stores[0];
}

/** Email + password login; returns a fresh dashboard token. */
/** Checks email and password and issues a dashboard token (named `login` unless `opts.name` says what it is for). */
export async function login(ctx: RequestContext, email: string, password: string, opts: { name?: string; expiresAt?: Date } = {}) {
  const user = await ctx.db.user.findUnique({ where: { email: email.trim().toLowerCase() } });
  const ok = await verifyPassword(user?.passwordHash, password);
  if (!user || !ok) throw new AppError('invalid_credentials', 'Email or password is incorrect');
  const { token, id } = await issueDashboardToken(ctx, user.id, { name: opts.name ?? 'login', expiresAt: opts.expiresAt });
  return { token, tokenId: id, user };
}
