/** Turn-taking on PGlite's single session between the service and the clients of its socket. */

import { EventEmitter } from 'node:events';
import type { PGlite } from '@electric-sql/pglite';
import { Mutex } from 'async-mutex';

/**
 * PGlite is one PostgreSQL backend: one session for everybody. The service's
 * own queries and the clients on its socket take turns through this lock, each
 * for a whole unit of work: one statement or one transaction in process, one
 * protocol cycle (up to ReadyForQuery outside a transaction block) on the socket.
 * PGlite keeps its own query/exec/transaction calls apart, but raw protocol
 * messages (what a socket client sends, through `runExclusive`) take only its
 * per-statement lock: without this a socket client's statement could run
 * inside a transaction of the service, or the reverse, and a rollback would
 * take the other's writes with it.
 */
export class PGliteSession {
  private readonly turn = new Mutex();
  private readonly events = new EventEmitter();

  constructor(readonly pglite: PGlite) {}

  /**
   * Called after a socket client (the CLI, psql) finished a unit of work that
   * wrote: the service drops what it keeps in memory about the database (its
   * verified tokens), so a token revoked from the CLI stops working at once.
   */
  onWriteByOtherProcess(listener: () => void): void {
    this.events.on('external-write', listener);
  }

  /** The socket server reports a client's write here. */
  reportWriteByOtherProcess(): void {
    this.events.emit('external-write');
  }

  /** Waits for the session; the returned function gives it back. */
  acquire(): Promise<() => void> {
    return this.turn.acquire();
  }

  /**
   * The PGlite as the in-process Prisma adapter and the migration runner see
   * it: `query`, `exec` and `transaction` wait for the session; everything else
   * is PGlite's own.
   */
  inProcessClient(): PGlite {
    const pg = this.pglite;
    const turn = this.turn;
    const guarded: Record<string, unknown> = {
      query: (...args: Parameters<PGlite['query']>) => turn.runExclusive(() => pg.query(...args)),
      exec: (...args: Parameters<PGlite['exec']>) => turn.runExclusive(() => pg.exec(...args)),
      transaction: (...args: Parameters<PGlite['transaction']>) => turn.runExclusive(() => pg.transaction(...args)),
    };
    return new Proxy(pg, {
      get(target, prop) {
        if (typeof prop === 'string' && prop in guarded) return guarded[prop];
        const value = Reflect.get(target, prop, target);
        // PGlite keeps its state in private fields: its methods must run on the real object.
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }
}
