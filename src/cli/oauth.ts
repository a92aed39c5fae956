import { db } from '../db/client';
import { createOAuthApp, listOAuthApps, setOAuthAppStatus } from '../services/oauthApps';
import { type CliCommand, CliError, list, optional, required } from './args';

async function ownerIdFrom(ref: string): Promise<string> {
  const user = await db().user.findFirst({ where: ref.includes('@') ? { email: ref.toLowerCase() } : { id: ref }, select: { id: true } });
  if (!user) throw new CliError(`no user ${ref}`);
  return user.id;
}

/** An app by --client-id or --id. The CLI is the operator's tool: it may suspend any app, not only the caller's. */
function appRef(flags: Record<string, string | true>) {
  const id = optional(flags, 'id');
  const clientId = optional(flags, 'client-id');
  if (!id === !clientId) throw new CliError('give exactly one of --client-id or --id');
  return id ? { id } : { clientId };
}

export const oauthCommands: CliCommand[] = [
  {
    name: 'oauth-app create',
    usage: '--owner <user id or email> --name <name> --redirect-uris <uri,uri> --scopes public:read,products:read',
    run: async (f) => {
      const { app, clientSecret } = await createOAuthApp({
        ownerId: await ownerIdFrom(required(f, 'owner')),
        name: required(f, 'name'),
        redirectUris: list(f, 'redirect-uris'),
        allowedScopes: list(f, 'scopes'),
      });
      return { ...app, clientSecret, note: 'the client secret is shown once: store it now' };
    },
  },
  {
    name: 'oauth-app list',
    usage: '[--owner <user id or email>]',
    run: async (f) => {
      const owner = optional(f, 'owner');
      return listOAuthApps(owner ? await ownerIdFrom(owner) : undefined);
    },
  },
  {
    name: 'oauth-app suspend',
    usage: '--client-id <client id> | --id <app id>',
    run: (f) => setOAuthAppStatus(appRef(f), 'suspended'),
  },
  {
    name: 'oauth-app activate',
    usage: '--client-id <client id> | --id <app id>',
    run: (f) => setOAuthAppStatus(appRef(f), 'active'),
  },
];
