import { issueDashboardToken } from '../auth/dashboardTokens';
import { db } from '../db/client';
import { addMember, createStore, createUser } from '../services/stores';
import { type CliCommand, CliError, list, optional, required } from './args';

async function userIdFrom(flags: Record<string, string | true>, name = 'user'): Promise<string> {
  const ref = required(flags, name);
  const user = await db().user.findFirst({ where: ref.includes('@') ? { email: ref.toLowerCase() } : { id: ref } });
  if (!user) throw new CliError(`no user ${ref}`);
  return user.id;
}

export const storeCommands: CliCommand[] = [
  {
    name: 'user create',
    usage: '--email <email> --name <name> [--password <password>]',
    run: async (f) => {
      const u = await createUser({ email: required(f, 'email'), name: required(f, 'name'), password: optional(f, 'password') });
      return { id: u.id, email: u.email };
    },
  },
  {
    name: 'store create',
    usage: '--name <name> --currency <ISO 4217> --owner <user id or email>',
    run: async (f) => {
      const s = await createStore({ name: required(f, 'name'), currency: required(f, 'currency'), ownerId: await userIdFrom(f, 'owner') });
      return { id: s.id, name: s.name, currency: s.currency };
    },
  },
  {
    name: 'category create',
    usage: '--store <store id> --slug <slug> --name <name>',
    run: async (f) => {
      const c = await db().category.create({ data: { storeId: required(f, 'store'), slug: required(f, 'slug'), name: required(f, 'name') } });
      return { id: c.id, slug: c.slug };
    },
  },
  {
    name: 'member add',
    usage: '--store <store id> --user <user id or email> [--permissions manage_products,manage_api_keys]',
    run: async (f) => {
      const m = await addMember({ storeId: required(f, 'store'), userId: await userIdFrom(f), permissions: list(f, 'permissions') as never });
      return { storeId: m.storeId, userId: m.userId, role: m.role, permissions: m.permissions };
    },
  },
  {
    name: 'token issue',
    usage: '--user <user id or email> [--name <label>] [--expires-in-days <n>]',
    run: async (f) => {
      const days = optional(f, 'expires-in-days');
      const expiresAt = days ? new Date(Date.now() + Number(days) * 86_400_000) : undefined;
      const { token, id } = await issueDashboardToken(await userIdFrom(f), { name: optional(f, 'name'), expiresAt });
      return { id, token, note: 'shown once: store it now' };
    },
  },
];
