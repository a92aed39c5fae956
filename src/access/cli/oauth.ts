/** CLI commands for OAuth apps: create, list, suspend, activate, rotate the secret. */

import { SCOPES } from '../../kernel/access';
import { createOAuthApp, listOAuthApps, rotateOAuthAppSecret, setOAuthAppStatus } from '../services/oauthApps';
import { findUser } from '../services/stores';
import { type CliCommand, defineCommand, exactlyOne, listFlag, optionalFlag, required, requiredFlag } from '../../api/cli/command';
import { oauthAppView } from '../services/views';
import { SHOWN_ONCE } from '../../api/cli/command';

type AppRef = { id?: string; clientId?: string };

/** An app by --client-id or --id. The CLI is the operator's tool: it may change any app, not only one user's. */
const appRef = (f: AppRef) => (f.id !== undefined ? { id: f.id } : { clientId: f.clientId });
const appRefOptions = () => [optionalFlag('--client-id <client id>', 'the app by its client_id (svc_oci_…)'), optionalFlag('--id <app id>', 'the app by its id')];
const checkAppRef = (f: AppRef) => exactlyOne(f, 'client-id', 'id');

export const oauthCommands: CliCommand[] = [
  defineCommand<{ owner: string; name: string; redirectUris: string[]; scopes: string[] }>({
    name: 'oauth-app create',
    description: 'Register an OAuth app owned by a user. The client secret is printed once; only its digest is kept.',
    options: [
      requiredFlag('--owner <user>', 'the owner: a user id or email'),
      requiredFlag('--name <name>', 'shown on the consent page (1-100 characters)'),
      required(listFlag('--redirect-uris <list>', 'comma-separated exact redirect URIs: https, or http on 127.0.0.1, [::1] or localhost')),
      required(listFlag('--scopes <list>', `comma-separated scopes the app may ask for, any of ${SCOPES.join(', ')}`)),
    ],
    examples: ['npm run cli -- oauth-app create --owner ana@example.com --name "Ana\'s sync" --redirect-uris https://sync.example.com/callback --scopes public:read,products:read'],
    run: async (f, ctx) => {
      const { app, clientSecret } = await createOAuthApp(ctx, {
        ownerId: (await findUser(ctx, f.owner)).id,
        name: f.name,
        redirectUris: f.redirectUris,
        allowedScopes: f.scopes,
      });
      return { ...oauthAppView(app), client_secret: clientSecret, note: SHOWN_ONCE };
    },
  }),
  defineCommand<{ owner?: string }>({
    name: 'oauth-app list',
    description: 'List OAuth apps, oldest first (never their secrets).',
    options: [optionalFlag('--owner <user>', "only this user's apps: a user id or email")],
    examples: ['npm run cli -- oauth-app list --owner ana@example.com'],
    run: async (f, ctx) => (await listOAuthApps(ctx, f.owner === undefined ? undefined : (await findUser(ctx, f.owner)).id)).map(oauthAppView),
  }),
  defineCommand<AppRef>({
    name: 'oauth-app suspend',
    description: "Suspend an app: its tokens answer 403 app_suspended until it is activated again; grants are kept.",
    options: appRefOptions(),
    examples: ['npm run cli -- oauth-app suspend --client-id svc_oci_3xY0nQk4bV9rT2mL8pZ1wD4kR7q2'],
    check: checkAppRef,
    run: async (f, ctx) => oauthAppView(await setOAuthAppStatus(ctx, appRef(f), 'suspended')),
  }),
  defineCommand<AppRef>({
    name: 'oauth-app activate',
    description: 'Activate a suspended app again.',
    options: appRefOptions(),
    examples: ['npm run cli -- oauth-app activate --client-id svc_oci_3xY0nQk4bV9rT2mL8pZ1wD4kR7q2'],
    check: checkAppRef,
    run: async (f, ctx) => oauthAppView(await setOAuthAppStatus(ctx, appRef(f), 'active')),
  }),
  defineCommand<AppRef>({
    name: 'oauth-app rotate-secret',
    description: 'Replace the client secret at once: the old one stops working. The new secret is printed once.',
    options: appRefOptions(),
    examples: ['npm run cli -- oauth-app rotate-secret --client-id svc_oci_3xY0nQk4bV9rT2mL8pZ1wD4kR7q2'],
    check: checkAppRef,
    run: async (f, ctx) => {
      const { app, clientSecret } = await rotateOAuthAppSecret(ctx, appRef(f));
      return { ...oauthAppView(app), client_secret: clientSecret, note: SHOWN_ONCE };
    },
  }),
];
