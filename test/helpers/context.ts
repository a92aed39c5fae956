import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { loadConfig } from '../../src/platform/config';
import { createContext, type RequestContext } from '../../src/platform/context';
import { db } from '../../src/platform/db/client';
import type { Principal } from '../../src/kernel/principal';

/**
 * A context for calling services directly in tests (fixtures, setup): the
 * system acts, on the test's open database. Pass a principal to act as someone.
 */
export function testContext(principal: Principal = { kind: 'system' }, overrides: Partial<RequestContext> = {}): RequestContext {
  return {
    ...createContext({
      requestId: `test-${randomUUID()}`,
      source: 'system',
      principal,
      config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SEED_DEMO: 'false' }),
      log: pino({ level: 'silent' }),
      db: db(),
    }),
    ...overrides,
  };
}
