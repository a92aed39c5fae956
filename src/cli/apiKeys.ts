import { redactApiKey } from '../auth/apiKeys';
import { db } from '../db/client';
import { createApiKey, listApiKeys, revokeApiKey, rollApiKey } from '../services/apiKeys';
import { type CliCommand, CliError, list, optional, required } from './args';

/** What the CLI prints about a key: never the digest, the secret only right after create/roll. */
function view(k: { id: string; name: string; type: string; mode: string; scopes: string[]; prefix: string; last4: string; createdAt: Date; lastUsedAt: Date | null; expiresAt: Date | null; revokedAt: Date | null; rolledFromId: string | null }) {
  return {
    id: k.id, name: k.name, type: k.type, mode: k.mode, scopes: k.scopes, key: redactApiKey(k),
    created_at: k.createdAt, last_used_at: k.lastUsedAt, expires_at: k.expiresAt, revoked_at: k.revokedAt, rolled_from_id: k.rolledFromId,
  };
}

async function storeIdFrom(flags: Record<string, string | true>): Promise<string> {
  const id = required(flags, 'store');
  const store = /^[0-9a-f-]{36}$/i.test(id) ? await db().store.findUnique({ where: { id }, select: { id: true } }) : null;
  if (!store) throw new CliError(`no store ${id}`);
  return store.id;
}

function modeFlag(flags: Record<string, string | true>): 'test' | 'live' | undefined {
  const mode = optional(flags, 'mode');
  if (mode !== undefined && mode !== 'test' && mode !== 'live') throw new CliError('--mode must be test or live');
  return mode;
}

export const apiKeyCommands: CliCommand[] = [
  {
    name: 'key create',
    usage: '--store <id> --type system|secret|publishable --mode test|live --name <label> [--scopes a,b] [--expires-at <ISO 8601>]',
    run: async (f) => {
      const expires = optional(f, 'expires-at');
      const expiresAt = expires === undefined ? undefined : new Date(expires);
      if (expiresAt && Number.isNaN(expiresAt.getTime())) throw new CliError('--expires-at must be an ISO 8601 date');
      const scopes = list(f, 'scopes');
      const { apiKey, secret } = await createApiKey(
        await storeIdFrom(f),
        { name: required(f, 'name'), type: required(f, 'type'), mode: required(f, 'mode'), scopes: scopes.length ? scopes : undefined, expiresAt },
        null,
      );
      return { ...view(apiKey), secret, note: 'shown once: store it now' };
    },
  },
  {
    name: 'key list',
    usage: '--store <id> [--mode test|live]',
    run: async (f) => (await listApiKeys(await storeIdFrom(f), { mode: modeFlag(f) })).map(view),
  },
  {
    name: 'key roll',
    usage: '--store <id> --key <key id> [--expires-in-seconds <0..604800, default 86400>]',
    run: async (f) => {
      const seconds = optional(f, 'expires-in-seconds');
      if (seconds !== undefined && !/^\d+$/.test(seconds)) throw new CliError('--expires-in-seconds must be a whole number of seconds');
      const r = await rollApiKey(await storeIdFrom(f), required(f, 'key'), { expiresInSeconds: seconds === undefined ? undefined : Number(seconds) }, null);
      return { ...view(r.apiKey), secret: r.secret, note: 'shown once: store it now', previous: view(r.previous) };
    },
  },
  {
    name: 'key revoke',
    usage: '--store <id> --key <key id>',
    run: async (f) => view(await revokeApiKey(await storeIdFrom(f), required(f, 'key'))),
  },
];
