/**
 * The Unix socket through which psql, the CLI and migrations reach the service's embedded database
 * (the PostgreSQL wire protocol, passed to PGlite).
 */

import { chmod, unlink } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import type { PGliteSession } from './pgliteSession';

/** PostgreSQL names its socket `.s.PGSQL.<port>` in a directory: `psql -h <that directory>` finds it. */
export const SOCKET_FILE = '.s.PGSQL.5432';

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

interface SocketServerOptions {
  /** A client that keeps the session (inside a transaction, or in the middle of a protocol cycle) this long without sending anything is disconnected and its transaction rolled back, so one forgotten `BEGIN` in psql cannot stall the service. */
  idleInSessionMs?: number;
  maxConnections?: number;
  onError?: (err: unknown) => void;
}

export interface SocketServer {
  path: string;
  connections(): number;
  close(): Promise<void>;
}

/**
 * Serves a PGlite session to local PostgreSQL clients (the CLI through `pg`,
 * `npm run db:migrate`, psql) on a Unix socket only its owner may open.
 *
 * Why not `@electric-sql/pglite-socket`'s server: its multiplexer queues single
 * protocol messages, so two clients' extended-protocol messages interleave
 * (one's Bind can land on the other's Parse), and it does not know about the
 * in-process user of the same PGlite, whose transactions its clients' statements
 * would join. Here a client holds the whole session (see PGliteSession) from its
 * first message to the next ReadyForQuery that leaves no transaction open.
 */
export async function serveOverSocket(session: PGliteSession, path: string, opts: SocketServerOptions = {}): Promise<SocketServer> {
  const idleInSessionMs = opts.idleInSessionMs ?? 30_000;
  const maxConnections = opts.maxConnections ?? 32;
  const live = new Set<ClientConnection>();
  const server: Server = createServer((socket) => {
    if (live.size >= maxConnections) {
      endWith(socket, errorResponse('FATAL', '53300', 'too many connections to the embedded database'));
      return;
    }
    const connection = new ClientConnection(socket, session, idleInSessionMs, opts.onError ?? (() => {}));
    live.add(connection);
    socket.once('close', () => live.delete(connection));
  });
  // We hold the data directory's lock, so a socket file left here is a dead process's.
  await unlink(path).catch(() => {});
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ path, readableAll: false, writableAll: false }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  await chmod(path, 0o600);
  server.on('error', (err) => opts.onError?.(err));
  return {
    path,
    connections: () => live.size,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...live].map((c) => c.terminate()));
      await closed;
      await unlink(path).catch(() => {});
    },
  };
}

class ClientConnection {
  private buffer: Buffer = Buffer.alloc(0);
  private started = false;
  /** Gives the session back; set while this client holds it. */
  private release: (() => void) | null = null;
  /** Messages are handled strictly in order, one at a time. */
  private queue: Promise<void> = Promise.resolve();
  private idleTimer: NodeJS.Timeout | null = null;
  private ended = false;
  /** Whether the unit of work in progress ran anything but reads (reported to the session when it ends). */
  private wrote = false;

  constructor(
    private readonly socket: Socket,
    private readonly session: PGliteSession,
    private readonly idleInSessionMs: number,
    private readonly onError: (err: unknown) => void,
  ) {
    socket.on('data', (chunk) => this.receive(chunk));
    socket.on('error', () => {}); // a client that vanishes mid-write: 'close' follows and cleans up
    socket.on('close', () => this.enqueue(() => this.cleanUp()));
  }

  /** Ends the connection from our side (server shutdown). */
  async terminate(): Promise<void> {
    this.socket.end(errorResponse('FATAL', '57P01', 'terminating connection: the service is shutting down'));
    this.socket.destroy();
    await this.enqueue(() => this.cleanUp());
  }

  private receive(chunk: Buffer) {
    this.clearIdleTimer();
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (;;) {
      const message = this.nextMessage();
      if (message === null) return;
      if (message === 'invalid') {
        this.fail('08P01', 'invalid message length');
        return;
      }
      this.enqueue(() => this.handle(message));
    }
  }

  /** The next whole message in the buffer: startup-phase messages have no type byte, later ones do. */
  private nextMessage(): ClientMessage | 'invalid' | null {
    const headerBytes = this.started ? 5 : 4;
    if (this.buffer.length < headerBytes) return null;
    const declared = this.buffer.readInt32BE(headerBytes - 4);
    if (declared < 4 || declared > MAX_MESSAGE_BYTES) return 'invalid';
    const total = declared + headerBytes - 4;
    if (this.buffer.length < total) return null;
    const bytes = this.buffer.subarray(0, total);
    this.buffer = this.buffer.subarray(total);
    if (this.started) return { kind: bytes[0] === 0x58 ? 'terminate' : 'protocol', bytes };
    const code = bytes.length >= 8 ? bytes.readInt32BE(4) : 0;
    if (code === SSL_REQUEST || code === GSSENC_REQUEST) return { kind: 'encryption-request', bytes };
    if (code === CANCEL_REQUEST) return { kind: 'cancel', bytes };
    this.started = true;
    return { kind: 'protocol', bytes };
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(step).catch((err) => {
      this.onError(err);
      this.fail('XX000', 'internal error of the embedded database server');
    });
    return this.queue;
  }

  private async handle(message: ClientMessage): Promise<void> {
    if (this.ended) return;
    this.clearIdleTimer();
    switch (message.kind) {
      case 'encryption-request':
        // No TLS or GSS on a local socket: 'N' tells the client to go on in the clear, as libpq expects.
        this.socket.write('N');
        return;
      case 'cancel': // cancelling another connection's query is not supported: PGlite cannot interrupt one
      case 'terminate':
        this.socket.end();
        return;
    }
    if (!this.release) this.release = await this.session.acquire();
    const reply = await this.execute(message.bytes);
    if (this.socket.writable) this.socket.write(reply);
    this.wrote ||= completesAWrite(reply);
    if (lastReadyForQueryStatus(reply) === 'I') this.giveBack();
    else this.armIdleTimer();
  }

  /** Runs one protocol message on PGlite; the caller holds the session. */
  private execute(bytes: Uint8Array): Promise<Uint8Array> {
    const pg = this.session.pglite;
    return pg.runExclusive(() => pg.execProtocolRaw(bytes));
  }

  private armIdleTimer() {
    this.clearIdleTimer();
    this.idleTimer = setTimeout(() => {
      this.fail('25P03', `terminating connection: it kept the embedded database's session idle for ${this.idleInSessionMs} ms (its transaction is rolled back)`);
    }, this.idleInSessionMs);
    this.idleTimer.unref();
  }

  private clearIdleTimer() {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private fail(code: string, text: string) {
    endWith(this.socket, errorResponse('FATAL', code, text));
  }

  /**
   * After the client is gone: finish any protocol cycle it left open, roll back
   * its transaction, and drop its session state (settings, prepared statements,
   * temporary tables, advisory locks) so the next user starts clean.
   */
  private async cleanUp(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    this.clearIdleTimer();
    if (!this.started) return this.giveBack();
    if (!this.release) this.release = await this.session.acquire();
    try {
      const synced = await this.execute(SYNC);
      if (lastReadyForQueryStatus(synced) !== 'I') await this.execute(simpleQuery('ROLLBACK'));
      await this.execute(simpleQuery('DISCARD ALL'));
    } finally {
      this.giveBack();
    }
  }

  private giveBack() {
    this.clearIdleTimer();
    const release = this.release;
    this.release = null;
    release?.();
    if (this.wrote) {
      this.wrote = false;
      this.session.reportWriteByOtherProcess();
    }
  }
}

/** Sends a last message and closes; a client that does not close its side in time is cut off. */
function endWith(socket: Socket, last: Buffer) {
  socket.end(last);
  setTimeout(() => socket.destroy(), 1000).unref();
}

type ClientMessage = { kind: 'protocol' | 'encryption-request' | 'cancel' | 'terminate'; bytes: Buffer };

const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);

/** A simple-protocol Query message. */
function simpleQuery(sql: string): Buffer {
  const text = Buffer.from(`${sql}\0`);
  const header = Buffer.alloc(5);
  header[0] = 0x51; // Q
  header.writeInt32BE(text.length + 4, 1);
  return Buffer.concat([header, text]);
}

/** Command tags of statements that change nothing; any other CommandComplete counts as a write (DML, DDL, COPY, a CALL). */
const READ_ONLY_TAGS = new Set(['SELECT', 'SHOW', 'SET', 'RESET', 'BEGIN', 'START', 'COMMIT', 'ROLLBACK', 'SAVEPOINT', 'RELEASE', 'DISCARD', 'DEALLOCATE', 'PREPARE', 'EXPLAIN', 'FETCH', 'MOVE', 'CLOSE', 'DECLARE', 'LISTEN', 'UNLISTEN']);

/** Whether a server reply holds the CommandComplete ('C') of a statement that may have written. */
function completesAWrite(reply: Uint8Array): boolean {
  const view = Buffer.from(reply.buffer, reply.byteOffset, reply.byteLength);
  for (let at = 0; at + 5 <= view.length; ) {
    const length = view.readInt32BE(at + 1);
    if (view[at] === 0x43 /* C */) {
      const tag = view.toString('latin1', at + 5, at + 1 + length).split(/[ \0]/)[0];
      if (!READ_ONLY_TAGS.has(tag)) return true;
    }
    at += 1 + length;
  }
  return false;
}

/** The transaction status of the last ReadyForQuery ('Z') in a server reply: I idle, T in a transaction, E failed transaction. */
function lastReadyForQueryStatus(reply: Uint8Array): 'I' | 'T' | 'E' | null {
  const view = Buffer.from(reply.buffer, reply.byteOffset, reply.byteLength);
  let status: 'I' | 'T' | 'E' | null = null;
  for (let at = 0; at + 5 <= view.length; ) {
    const length = view.readInt32BE(at + 1);
    if (view[at] === 0x5a && length === 5 && at + 5 < view.length) status = String.fromCharCode(view[at + 5]) as 'I' | 'T' | 'E';
    at += 1 + length;
  }
  return status;
}

/** A PostgreSQL ErrorResponse message. */
function errorResponse(severity: 'FATAL' | 'ERROR', code: string, text: string): Buffer {
  const fields = Buffer.concat([
    ...[
      ['S', severity],
      ['V', severity],
      ['C', code],
      ['M', text],
    ].map(([k, v]) => Buffer.from(`${k}${v}\0`)),
    Buffer.from([0]),
  ]);
  const header = Buffer.alloc(5);
  header[0] = 0x45; // E
  header.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([header, fields]);
}
