/** Webhook signing secrets and signatures (Standard Webhooks). */

import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): the secret is
 * `whsec_` + base64 of the key bytes; a signature is `v1,` + base64 of
 * HMAC-SHA256(key, `${id}.${timestamp}.${body}`); several signatures (a secret
 * roll) are separated by spaces. The tests check every delivery with the
 * `standardwebhooks` package, not with this module.
 */

const SECRET_PREFIX = 'whsec_';

/** A new signing secret: 32 random bytes. */
export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** The last four characters, to recognise a secret in lists without revealing it. */
export const secretHint = (secret: string) => `${SECRET_PREFIX}…${secret.slice(-4)}`;

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** `v1,<base64 signature>` of one message with one secret; `timestamp` in whole seconds. */
function sign(secret: string, id: string, timestamp: number, body: string): string {
  return 'v1,' + createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
}

/** The webhook-signature header: the current secret's signature, then the previous secret's while it overlaps. */
export function signatureHeader(secrets: string[], id: string, timestamp: number, body: string): string {
  return secrets.map((s) => sign(s, id, timestamp, body)).join(' ');
}
