/**
 * What the CLI prints for each kind of record: the representations clients see
 * elsewhere (src/services/representations.ts). Secrets appear only in the
 * output of the command that made them.
 */
export { apiKeyView, categoryView, dashboardTokenView, memberView, oauthAppView, storeView, userView } from '../services/representations';

/** Next to a secret: it cannot be shown again. */
export const SHOWN_ONCE = 'shown once: store it now';
