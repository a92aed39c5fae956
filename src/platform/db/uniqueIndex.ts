/** Which unique index a failed write violated, whichever driver adapter reported it. */

import { Prisma } from './client';

/**
 * Name of the unique index a write violated (P2002, or P2010 from a raw statement), or undefined for any other
 * error. The driver adapters report the constraint differently (PGlite: column
 * list, pg: index name) but both keep PostgreSQL's original message, which names it.
 */
export function violatedUniqueIndex(e: unknown): string | undefined {
  if (!(e instanceof Prisma.PrismaClientKnownRequestError) || (e.code !== 'P2002' && e.code !== 'P2010')) return undefined;
  const cause = (e.meta as { driverAdapterError?: { cause?: { kind?: string; originalMessage?: string; constraint?: { index?: string } } } } | undefined)
    ?.driverAdapterError?.cause;
  // A raw statement's failure (P2010) is a unique violation only when the adapter says so.
  if (e.code === 'P2010' && cause?.kind !== 'UniqueConstraintViolation') return undefined;
  return cause?.constraint?.index ?? /unique constraint "([^"]+)"/.exec(cause?.originalMessage ?? e.message)?.[1] ?? 'unknown';
}
