/** Password hashing and verification (argon2id). */

import { Algorithm, hash, verify } from '@node-rs/argon2';

// argon2id with the OWASP-recommended minimum (19 MiB, 2 iterations).
const options = { algorithm: Algorithm.Argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string) => hash(password, options);

export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  // Hash anyway when there is no user, so the response time does not reveal which emails exist.
  if (!passwordHash) {
    await hash(password, options);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
