import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { PGlite } from '@electric-sql/pglite';
import { Client } from 'pg';
import { openPGlite } from '../../src/platform/db/adapters';
import { socketConnectionUrl } from '../../src/platform/db/embedded/open';
import { PGliteSession } from '../../src/platform/db/embedded/pgliteSession';
import { serveOverSocket, SOCKET_FILE, type SocketServer } from '../../src/platform/db/embedded/socketServer';
import { describeIndependentOfDatabase } from '../helpers/serverProcess';
import { newTempDir } from '../helpers/templates';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The embedded database shared over a Unix socket: real PostgreSQL clients
 * (`pg`, psql) on one side, the in-process user of the same PGlite on the other.
 */
describeIndependentOfDatabase('embedded database socket', () => {
  let pglite: PGlite;
  let session: PGliteSession;
  let inProcess: PGlite;
  let server: SocketServer;
  let url: string;
  const clients: Client[] = [];

  async function connectClient(): Promise<Client> {
    const client = new Client({ connectionString: url });
    client.on('error', () => {});
    await client.connect();
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    pglite = await openPGlite();
    session = new PGliteSession(pglite);
    inProcess = session.inProcessClient();
    await inProcess.exec('CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL)');
    const dir = newTempDir('catalog-sock-');
    server = await serveOverSocket(session, `${dir}/${SOCKET_FILE}`, { idleInSessionMs: 700, maxConnections: 6 });
    url = socketConnectionUrl(dir);
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.end().catch(() => {})));
    await inProcess.exec('TRUNCATE notes');
  });

  afterAll(async () => {
    await server.close();
    await pglite.close();
  });

  it('answers each client its own parameterised queries while several interleave', async () => {
    const many = await Promise.all([1, 2, 3, 4].map(() => connectClient()));
    const wrong: string[] = [];
    await Promise.all(
      many.map(async (client, i) => {
        for (let n = 0; n < 60; n++) {
          const { rows } = await client.query('SELECT $1::int AS n, $2::text AS who', [n, `client ${i}`]);
          if (rows[0].n !== n || rows[0].who !== `client ${i}`) wrong.push(`${i}/${n}: ${JSON.stringify(rows[0])}`);
        }
      }),
    );
    expect(wrong).toEqual([]);
  });

  it("keeps a client's open transaction to itself: the service waits for it and never sees it roll back into its data", async () => {
    const client = await connectClient();
    await client.query('BEGIN');
    await client.query("INSERT INTO notes (body) VALUES ('from the socket, rolled back')");
    let serviceSaw: unknown;
    const serviceRead = inProcess.query<{ n: number }>('SELECT count(*)::int AS n FROM notes').then((r) => (serviceSaw = r.rows[0].n));
    await sleep(200);
    expect(serviceSaw).toBeUndefined(); // waits for the client's transaction
    await client.query('ROLLBACK');
    await serviceRead;
    expect(serviceSaw).toBe(0);
  });

  it("keeps the service's transaction to itself: a client's write is neither part of it nor lost when it rolls back", async () => {
    const client = await connectClient();
    const serviceTx = inProcess
      .transaction(async (tx) => {
        await tx.query("INSERT INTO notes (body) VALUES ('service, rolled back')");
        await sleep(300);
        throw new Error('roll back');
      })
      .catch(() => 'rolled back');
    await sleep(50);
    await client.query("INSERT INTO notes (body) VALUES ('client, committed')");
    expect(await serviceTx).toBe('rolled back');
    const { rows } = await inProcess.query<{ body: string }>('SELECT body FROM notes ORDER BY id');
    expect(rows.map((r) => r.body)).toEqual(['client, committed']);
  });

  it("keeps in-process callers out of each other's transactions through the guarded client", async () => {
    const rolledBack = inProcess
      .transaction(async (tx) => {
        await tx.query("INSERT INTO notes (body) VALUES ('first request, rolled back')");
        await sleep(200);
        throw new Error('roll back');
      })
      .catch(() => 'rolled back');
    await sleep(20);
    await inProcess.query("INSERT INTO notes (body) VALUES ('second request, committed')");
    expect(await rolledBack).toBe('rolled back');
    const { rows } = await inProcess.query<{ body: string }>('SELECT body FROM notes ORDER BY id');
    expect(rows.map((r) => r.body)).toEqual(['second request, committed']);
  });

  it('disconnects a client that idles inside a transaction while others wait, and rolls its transaction back', async () => {
    const client = await connectClient();
    const ended = new Promise<Error>((resolve) => client.once('error', resolve));
    await client.query('BEGIN');
    await client.query("INSERT INTO notes (body) VALUES ('abandoned')");
    const started = Date.now();
    const { rows } = await inProcess.query<{ n: number }>('SELECT count(*)::int AS n FROM notes');
    expect(rows[0].n).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await ended).message).toMatch(/idle .* rolled back/);
  });

  it('rolls back and forgets the session state of a client that goes away mid-transaction', async () => {
    const client = await connectClient();
    await client.query("SET application_name = 'left behind'");
    await client.query('BEGIN');
    await client.query("INSERT INTO notes (body) VALUES ('never committed')");
    await client.end();
    const { rows } = await inProcess.query<{ n: number; app: string }>("SELECT (SELECT count(*)::int FROM notes) AS n, current_setting('application_name') AS app");
    expect(rows[0]).toEqual({ n: 0, app: '' });
    // and the next client starts on a free session
    const next = await connectClient();
    expect((await next.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('refuses connections beyond its limit with a PostgreSQL error, and serves again once one closes', async () => {
    await Promise.all([1, 2, 3, 4, 5, 6].map(() => connectClient()));
    const extra = new Client({ connectionString: url });
    await expect(extra.connect()).rejects.toThrow(/too many connections/);
    await clients.pop()!.end();
    await sleep(50);
    const again = await connectClient();
    expect((await again.query('SELECT 2 AS two')).rows).toEqual([{ two: 2 }]);
  });

  it('serves psql, which finds the socket from the directory as with PostgreSQL', async () => {
    await inProcess.query("INSERT INTO notes (body) VALUES ('visible to psql')");
    const dir = decodeURIComponent(new URL(url).searchParams.get('host')!);
    const { stdout } = await run('psql', ['-h', dir, '-U', 'postgres', '-d', 'postgres', '-At', '-c', 'SELECT body FROM notes']);
    expect(stdout.trim()).toBe('visible to psql');
  });
});
