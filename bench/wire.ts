/**
 * A counting TCP proxy in front of PostgreSQL: a server process pointed at it
 * (DATABASE_URL on the proxy's port) has every statement it sends counted on
 * the wire, whatever client library, ORM version or code path sent it. It
 * reads the frontend side of the protocol: a simple Query ('Q') is one
 * statement, and so is an Execute ('E') of the extended protocol, named after
 * the SQL of the Parse ('P') its Bind ('B') refers to. BEGIN, COMMIT and
 * ROLLBACK are statements like any other, so they are counted too.
 *
 * Only for the statement counts: the extra hop costs latency, so throughput is
 * measured on a process that talks to PostgreSQL directly. Plain TCP only
 * (the bench's connection strings ask for no TLS).
 */
import net from 'node:net';

export interface StatementLog {
  /** Statements seen since the last reset(), in order. */
  statements: string[];
  /**
   * Milliseconds from each statement's message to its CommandComplete (or
   * error): parse, plan and execution on the server plus a local round trip;
   * NaN while it has not completed.
   */
  ms: number[];
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;

/** Parses one client connection's stream and reports each statement it executes. */
class FrontendParser {
  private buf: Buffer = Buffer.alloc(0);
  private startedUp = false;
  private prepared = new Map<string, string>();
  private portals = new Map<string, string>();
  /** The client asked for TLS: the server's one-byte answer comes before any typed message. */
  sslRequested = false;

  constructor(private readonly onStatement: (sql: string) => void) {}

  push(chunk: Buffer) {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    for (;;) {
      if (!this.startedUp) {
        // Startup-phase messages have no type byte: length, then a code.
        if (this.buf.length < 8) return;
        const len = this.buf.readInt32BE(0);
        if (this.buf.length < len) return;
        const code = this.buf.readInt32BE(4);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) this.sslRequested = true;
        this.buf = this.buf.subarray(len);
        if (code !== SSL_REQUEST && code !== GSSENC_REQUEST && code !== CANCEL_REQUEST) this.startedUp = true;
        continue;
      }
      if (this.buf.length < 5) return;
      const type = String.fromCharCode(this.buf[0]);
      const len = this.buf.readInt32BE(1);
      if (this.buf.length < 1 + len) return;
      const body = this.buf.subarray(5, 1 + len);
      this.buf = this.buf.subarray(1 + len);
      this.message(type, body);
    }
  }

  private message(type: string, body: Buffer) {
    const cstrings = (n: number) => {
      const out: string[] = [];
      let at = 0;
      for (let i = 0; i < n; i++) {
        const end = body.indexOf(0, at);
        if (end < 0) break;
        out.push(body.toString('utf8', at, end));
        at = end + 1;
      }
      return out;
    };
    switch (type) {
      case 'Q':
        this.onStatement(cstrings(1)[0] ?? '');
        break;
      case 'P': {
        const [name, sql] = cstrings(2);
        this.prepared.set(name, sql);
        break;
      }
      case 'B': {
        const [portal, statement] = cstrings(2);
        this.portals.set(portal, this.prepared.get(statement) ?? `<prepared ${statement}>`);
        break;
      }
      case 'E':
        this.onStatement(this.portals.get(cstrings(1)[0] ?? '') ?? '<unknown portal>');
        break;
    }
  }
}

/** Reads the server's side of one connection: each CommandComplete, EmptyQueryResponse or ErrorResponse ends the oldest pending statement. */
class BackendParser {
  private buf: Buffer = Buffer.alloc(0);
  private skippedSslByte = false;

  constructor(
    private readonly frontend: FrontendParser,
    private readonly onDone: () => void,
  ) {}

  push(chunk: Buffer) {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    if (this.frontend.sslRequested && !this.skippedSslByte && this.buf.length) {
      this.buf = this.buf.subarray(1);
      this.skippedSslByte = true;
    }
    while (this.buf.length >= 5) {
      const type = String.fromCharCode(this.buf[0]);
      const len = this.buf.readInt32BE(1);
      if (this.buf.length < 1 + len) return;
      this.buf = this.buf.subarray(1 + len);
      if (type === 'C' || type === 'I' || type === 'E') this.onDone();
    }
  }
}

export class StatementCounter {
  private server?: net.Server;
  private sockets = new Set<net.Socket>();
  private log: string[] = [];
  private ms: number[] = [];
  port = 0;

  constructor(private readonly upstream: { host: string; port: number }) {}

  async start(): Promise<this> {
    this.server = net.createServer((client) => {
      // This connection's statements waiting for their completion: index in the log and start time.
      const pending: { at: number; log: string[]; started: bigint }[] = [];
      const parser = new FrontendParser((sql) => {
        pending.push({ at: this.log.length, log: this.log, started: process.hrtime.bigint() });
        this.log.push(sql);
        this.ms.push(NaN);
      });
      const backend = new BackendParser(parser, () => {
        const p = pending.shift();
        // A statement of an earlier window (before reset()) has nowhere to go.
        if (p && p.log === this.log) this.ms[p.at] = Number(process.hrtime.bigint() - p.started) / 1e6;
      });
      const upstream = net.connect(this.upstream.port, this.upstream.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.setNoDelay(true);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.on('data', (chunk: Buffer) => {
        parser.push(chunk);
        upstream.write(chunk);
      });
      upstream.on('data', (chunk: Buffer) => {
        backend.push(chunk);
        client.write(chunk);
      });
      client.on('end', () => upstream.end());
      upstream.on('end', () => client.end());
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this;
  }

  /** `url` with its host and port replaced by the proxy's. */
  proxied(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  reset() {
    this.log = [];
    this.ms = [];
  }

  snapshot(): StatementLog {
    return { statements: [...this.log], ms: [...this.ms] };
  }

  async stop() {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/**
 * A short name for a statement: its verb and first table
 * (`SELECT products`, `INSERT events`, `BEGIN`), enough to tell the
 * statements of one request apart in a report.
 */
export function statementLabel(sql: string): string {
  const s = sql.trim().replace(/\s+/g, ' ');
  const verb = /^(\w+)/.exec(s)?.[1]?.toUpperCase() ?? '?';
  const table = (re: RegExp) => re.exec(s)?.[1]?.replace(/"/g, '').replace(/^public\./, '');
  const name = '((?:"?\\w+"?\\.)?"?\\w+"?)';
  switch (verb) {
    case 'SELECT':
    case 'WITH':
      return `${verb} ${table(new RegExp(`\\bFROM ${name}`, 'i')) ?? ''}`.trim();
    case 'INSERT':
      return `INSERT ${table(new RegExp(`^INSERT INTO ${name}`, 'i')) ?? ''}`.trim();
    case 'UPDATE':
      return `UPDATE ${table(new RegExp(`^UPDATE ${name}`, 'i')) ?? ''}`.trim();
    case 'DELETE':
      return `DELETE ${table(new RegExp(`^DELETE FROM ${name}`, 'i')) ?? ''}`.trim();
    default:
      return s.length > 40 ? `${s.slice(0, 40)}…` : s;
  }
}
