import pino from 'pino';
import { loadConfig } from '../../src/platform/config';
import { db } from '../../src/platform/db/client';
import { createWorker } from '../../src/jobs/worker';
import { cliOn, servedDataDir } from '../helpers/cli';
import { type Receiver, startReceiver, verifyDelivery } from '../helpers/webhooks';
import { describeEmbeddedProcesses } from '../helpers/serverProcess';
import { migratedDataDir } from '../helpers/templates';

/**
 * `npm run cli -- webhook …` as real processes on an embedded database: the
 * endpoint commands, the delivery log commands, and what a receiver gets from
 * the worker afterwards (verified with the `standardwebhooks` package using
 * the secrets the CLI printed).
 */

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

/** The CLI with WEBHOOK_ALLOW_PRIVATE_TARGETS set for its processes (the receiver listens on loopback over http). */
function cliAllowingPrivateTargets(dataDir: string) {
  const saved = process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
  try {
    return cliOn(dataDir);
  } finally {
    if (saved === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
    else process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = saved;
  }
}

describeEmbeddedProcesses('npm run cli -- webhook …', () => {
  jest.setTimeout(300_000);

  it('creates, shows, updates, rolls, pings, lists and resends, replays and deletes; the receiver verifies every delivery', async () => {
    // The service holds the data directory from the start; the CLI goes through it. Its worker (below) delivers what the CLI queued.
    const server = await servedDataDir(migratedDataDir('catalog-cli-webhooks-'), { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    const { dataDir } = server;
    const strict = cliOn(dataDir);
    const { json: cli, outcome } = cliAllowingPrivateTargets(dataDir);
    await strict.json('user', 'create', '--email', 'hooks@example.test', '--name', 'Hooks');
    const store = await strict.json('store', 'create', '--name', 'Hook shop', '--currency', 'EUR', '--owner', 'hooks@example.test');

    // Without WEBHOOK_ALLOW_PRIVATE_TARGETS the guard refuses private targets and http; bad flags are usage errors (exit 2).
    const refused = [
      [['--url', 'https://10.0.0.1/hooks', '--events', 'product.created'], 'error: webhook_url_forbidden: --url: targets a private address (10.0.0.1); webhooks go to public addresses only; a receiver on this machine or network needs WEBHOOK_ALLOW_PRIVATE_TARGETS=true, for local development (see /docs/errors/webhook_url_forbidden)\n'],
      [['--url', receiver.url, '--events', 'product.created'], 'error: validation_failed: --url: must be an https URL; http is accepted only for a loopback host (localhost, 127.0.0.1), and only with WEBHOOK_ALLOW_PRIVATE_TARGETS=true, for local development (see /docs/errors/webhook_url_forbidden)\n'],
      [['--url', 'https://hooks.example.com/x', '--events', 'product.exploded'], expect.stringMatching(/^error: validation_failed: --events: unknown event type "product.exploded"/)],
    ] as const;
    for (const [flags, stderr] of refused) {
      expect(await strict.outcome('webhook', 'create', '--store', 'Hook shop', ...flags)).toEqual({ code: 1, stdout: '', stderr });
    }
    const badMode = await strict.outcome('webhook', 'create', '--store', 'Hook shop', '--url', 'https://hooks.example.com/x', '--events', '*', '--mode', 'prod');
    expect(badMode).toMatchObject({ code: 2, stderr: expect.stringContaining('Allowed choices are test, live') });

    const created = await cli('webhook', 'create', '--store', 'Hook shop', '--url', receiver.url, '--events', 'product.created,product.updated', '--description', 'ERP');
    expect(created).toEqual({
      id: expect.any(String),
      store_id: store.id,
      mode: 'live',
      url: receiver.url,
      description: 'ERP',
      event_types: ['product.created', 'product.updated'],
      status: 'enabled',
      disabled_reason: null,
      disabled_at: null,
      secret_hint: `whsec_…${created.secret.slice(-4)}`,
      previous_secret_expires_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      secret: expect.stringMatching(/^whsec_/),
      note: 'shown once: store it now',
    });
    const { secret: _s, note: _n, ...view } = created;
    expect(await cli('webhook', 'list', '--store', 'Hook shop')).toEqual([view]);
    // Named by its URL as well as by its id.
    expect(await cli('webhook', 'show', '--store', 'Hook shop', '--endpoint', receiver.url)).toEqual(view);
    expect(await outcome('webhook', 'show', '--store', 'Hook shop', '--endpoint', 'https://elsewhere.example.com/')).toMatchObject({ code: 1, stderr: expect.stringMatching(/^error: not_found: /) });

    const updated = await cli('webhook', 'update', '--store', 'Hook shop', '--endpoint', created.id, '--events', 'product.created', '--description', 'ERP, created only');
    expect(updated).toMatchObject({ id: created.id, event_types: ['product.created'], description: 'ERP, created only' });
    expect(await outcome('webhook', 'update', '--store', 'Hook shop', '--endpoint', created.id)).toMatchObject({ code: 2, stderr: expect.stringContaining('give at least one of') });

    const rolled = await cli('webhook', 'roll-secret', '--store', 'Hook shop', '--endpoint', receiver.url, '--overlap-hours', '1');
    expect(rolled).toMatchObject({ id: created.id, secret: expect.stringMatching(/^whsec_/), previous_secret_expires_at: expect.any(String), note: 'shown once: store it now' });
    expect(rolled.secret).not.toBe(created.secret);
    expect(JSON.stringify(await cli('webhook', 'list', '--store', 'Hook shop'))).not.toContain(rolled.secret.slice(6));

    const ping = await cli('webhook', 'ping', '--store', 'Hook shop', '--endpoint', created.id);
    expect(ping).toMatchObject({ webhook_id: `msg_${ping.id}`, event_type: 'ping', event_id: null, status: 'pending', trigger: 'ping', attempts: [] });

    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    const worker = createWorker({ config, log: pino({ level: 'silent' }), db });
    try {
      await worker.runOnce();
      expect(receiver.requests).toHaveLength(1);
      const [req] = receiver.requests;
      expect(req.headers['webhook-id']).toBe(`msg_${ping.id}`);
      // Within the overlap both printed secrets verify it.
      expect(verifyDelivery(rolled.secret, req).type).toBe('ping');
      expect(verifyDelivery(created.secret, req).data.endpoint_id).toBe(created.id);

      const log = await cli('webhook', 'messages', '--store', 'Hook shop');
      expect(log).toEqual({ data: [expect.objectContaining({ id: ping.id, status: 'succeeded', attempt_count: 1 })], next_cursor: null });
      expect(log.data[0].payload).toBeUndefined();
      expect(await cli('webhook', 'messages', '--store', 'Hook shop', '--endpoint', receiver.url, '--status', 'failed')).toEqual({ data: [], next_cursor: null });
      const shown = await cli('webhook', 'message', '--store', 'Hook shop', '--message', ping.id);
      expect(shown.payload).toBe(req.body);
      expect(shown.attempts).toEqual([expect.objectContaining({ number: 1, trigger: 'ping', succeeded: true, status_code: 200, response_body: 'ok' })]);

      const resent = await cli('webhook', 'resend', '--store', 'Hook shop', '--message', ping.id);
      expect(resent).toMatchObject({ id: ping.id, status: 'pending', trigger: 'resend' });
      await worker.runOnce();
      expect(receiver.requests.map((r) => r.headers['webhook-id'])).toEqual([`msg_${ping.id}`, `msg_${ping.id}`]);
      expect(receiver.requests[1].body).toBe(req.body);

      // A ping that fails, then a replay of the endpoint's failed messages.
      receiver.setDefault({ status: 500, body: 'down' });
      const since = new Date(Date.now() - 60_000).toISOString();
      const failing = await cli('webhook', 'ping', '--store', 'Hook shop', '--endpoint', created.id);
      await worker.runOnce();
      const failedList = await cli('webhook', 'messages', '--store', 'Hook shop', '--status', 'failed');
      expect(failedList.data.map((m: any) => m.id)).toEqual([failing.id]);
      receiver.setDefault({ status: 200, body: 'ok' });
      expect(await cli('webhook', 'replay', '--store', 'Hook shop', '--endpoint', created.id, '--since', since)).toEqual({ endpoint_id: created.id, since, replayed: 1 });
      await worker.runOnce();
      expect((await cli('webhook', 'message', '--store', 'Hook shop', '--message', failing.id)).attempts.map((a: any) => [a.trigger, a.status_code])).toEqual([
        ['ping', 500],
        ['replay', 200],
      ]);
      expect(await outcome('webhook', 'replay', '--store', 'Hook shop', '--endpoint', created.id, '--since', '2020-01-01')).toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/^error: validation_failed: --since: must be within the last 30 days/),
      });

      const disabled = await cli('webhook', 'update', '--store', 'Hook shop', '--endpoint', created.id, '--status', 'disabled');
      expect(disabled).toMatchObject({ status: 'disabled', disabled_reason: 'manual' });
      expect(await outcome('webhook', 'ping', '--store', 'Hook shop', '--endpoint', created.id)).toMatchObject({ code: 1, stderr: expect.stringMatching(/^error: endpoint_disabled: /) });

      const deleted = await cli('webhook', 'delete', '--store', 'Hook shop', '--endpoint', receiver.url);
      expect(deleted).toMatchObject({ id: created.id, status: 'disabled' });
      expect(await cli('webhook', 'list', '--store', 'Hook shop')).toEqual([]);

      const history = await cli('changes', 'list', '--store', 'Hook shop', '--resource-type', 'webhook_endpoint');
      expect(history.data.map((e: any) => [e.type, e.source, e.actor.kind])).toEqual([
        ['webhook_endpoint.deleted', 'cli', 'operator'],
        ['webhook_endpoint.disabled', 'cli', 'operator'],
        ['webhook_endpoint.secret_rolled', 'cli', 'operator'],
        ['webhook_endpoint.updated', 'cli', 'operator'],
        ['webhook_endpoint.created', 'cli', 'operator'],
      ]);
      expect(JSON.stringify(history)).not.toContain(created.secret.slice(6));
    } finally {
      await worker.stop();
      await server.close();
    }
  });
});
