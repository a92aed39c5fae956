/** The request context a CLI command runs in. */

import { randomUUID } from 'node:crypto';
import { userInfo } from 'node:os';
import pino from 'pino';
import type { Config } from '../../platform/config';
import { createContext, type RequestContext } from '../../platform/context';
import type { PrismaClient } from '../../platform/db/client';

/** Who runs the CLI: the operating-system user, recorded as the actor of every change a command makes. */
function operatorName(): string {
  try {
    return userInfo().username || 'operator';
  } catch {
    return 'operator';
  }
}

/** The context one CLI command runs in: the operator acts, through the CLI, on `db`. */
export function operatorContext(config: Config, db: PrismaClient): RequestContext {
  return createContext({
    requestId: randomUUID(),
    source: 'cli',
    principal: { kind: 'operator', username: operatorName() },
    config,
    log: pino({ level: 'silent' }),
    db,
  });
}
