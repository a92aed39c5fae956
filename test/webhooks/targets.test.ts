import type { LookupAddress } from 'node:dns';
import { request } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { AppError } from '../../src/platform/errors';
import { generateSecret, signatureHeader } from '../../src/events/webhooks/signing';
import { assertDeliverableHost, checkWebhookUrl, forbiddenRange, guardedLookup } from '../../src/events/webhooks/targets';

/** A resolver answering from a table, the way a DNS server under someone else's control might. */
function fakeDns(table: Record<string, string[]>) {
  const calls: string[] = [];
  const lookup = ((host: string, _opts: unknown, cb: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => {
    calls.push(host);
    const answers = table[host];
    if (!answers) {
      const err = Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return cb(err, []);
    }
    cb(null, answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  }) as never;
  return { lookup, calls };
}

const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return { code: (e as AppError).code, message: (e as AppError).message };
  }
  throw new Error('expected a refusal');
};

describe('which addresses a webhook may target', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['fd00:ec2::254', 'uniqueLocal'],
    ['100.100.100.200', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
  ])('%s is refused (%s)', (address, range) => {
    expect(forbiddenRange(address)).toBe(range);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:93.184.215.14'])('%s is allowed', (address) => {
    expect(forbiddenRange(address)).toBeNull();
  });
});

describe('checking a webhook URL at creation', () => {
  const strict = { allowPrivate: false };

  it.each([
    'https://127.0.0.1/hook',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://10.0.0.5/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://0x7f000001/hook', // WHATWG URL parsing turns this into 127.0.0.1
    'https://2130706433/hook',
    'https://localhost/hook',
    'https://api.localhost/hook',
    'https://metadata.google.internal/computeMetadata/v1/',
  ])('refuses %s with webhook_url_forbidden', async (url) => {
    const r = await refusal(checkWebhookUrl(url, { ...strict, lookup: fakeDns({}).lookup }));
    expect(r.code).toBe('webhook_url_forbidden');
  });

  it('refuses a public-looking name that resolves to a private address, naming both', async () => {
    const dns = fakeDns({ 'hooks.partner.example': ['93.184.215.14', '10.0.0.9'] });
    const r = await refusal(checkWebhookUrl('https://hooks.partner.example/in', { ...strict, lookup: dns.lookup }));
    expect(r.code).toBe('webhook_url_forbidden');
    expect(r.message).toContain('hooks.partner.example');
    expect(r.message).toContain('10.0.0.9');
  });

  it('accepts a name that resolves to public addresses only, and one that does not resolve yet', async () => {
    const dns = fakeDns({ 'hooks.partner.example': ['93.184.215.14'] });
    await expect(checkWebhookUrl('https://hooks.partner.example/in?x=1', { ...strict, lookup: dns.lookup })).resolves.toBe('https://hooks.partner.example/in?x=1');
    await expect(checkWebhookUrl('https://not-yet.partner.example/in', { ...strict, lookup: dns.lookup })).resolves.toBe('https://not-yet.partner.example/in');
  });

  it.each([
    ['http://hooks.partner.example/in', 'https'],
    ['ftp://hooks.partner.example/in', 'https'],
    ['/relative/path', 'absolute'],
    ['https://user:pass@hooks.partner.example/in', 'user name or password'],
    ['https://hooks.partner.example/in#frag', 'fragment'],
    [`https://hooks.partner.example/${'a'.repeat(2100)}`, '2048'],
  ])('refuses %s as invalid (%s)', async (url, words) => {
    const r = await refusal(checkWebhookUrl(url, strict));
    expect(r.code).toBe('validation_failed');
    expect(r.message).toContain(words);
  });

  it('with private targets allowed: http on loopback passes, http elsewhere still does not', async () => {
    const loose = { allowPrivate: true };
    await expect(checkWebhookUrl('http://127.0.0.1:8080/hook', loose)).resolves.toBe('http://127.0.0.1:8080/hook');
    await expect(checkWebhookUrl('http://localhost:8080/hook', loose)).resolves.toBe('http://localhost:8080/hook');
    expect((await refusal(checkWebhookUrl('http://10.0.0.5/hook', loose))).code).toBe('validation_failed');
    await expect(checkWebhookUrl('https://10.0.0.5/hook', loose)).resolves.toBe('https://10.0.0.5/hook');
  });
});

describe('the guard at delivery', () => {
  it('refuses IP literals and private names that never reach a lookup', () => {
    expect(() => assertDeliverableHost('127.0.0.1', { allowPrivate: false })).toThrow(/loopback/);
    expect(() => assertDeliverableHost('[::1]', { allowPrivate: false })).toThrow(/loopback/);
    expect(() => assertDeliverableHost('metadata.google.internal', { allowPrivate: false })).toThrow(/private host name/);
    expect(() => assertDeliverableHost('93.184.215.14', { allowPrivate: false })).not.toThrow();
    expect(() => assertDeliverableHost('127.0.0.1', { allowPrivate: true })).not.toThrow();
  });

  it('checks the address a name resolves to at connection time: a rebound name never gets a connection', async () => {
    // First the name resolved to a public address (creation passed); now it points at the loopback interface.
    const dns = fakeDns({ 'rebound.partner.example': ['127.0.0.1'] });
    const error = await new Promise<Error>((resolve) => {
      const req = request({ host: 'rebound.partner.example', port: 9, path: '/', method: 'POST', lookup: guardedLookup({ allowPrivate: false, lookup: dns.lookup }) });
      req.on('error', resolve);
      req.end();
    });
    expect(dns.calls).toEqual(['rebound.partner.example']);
    expect(error.message).toMatch(/rebound\.partner\.example resolved to 127\.0\.0\.1, a loopback address/);
  });
});

describe('signatures', () => {
  it('are Standard Webhooks signatures: the standardwebhooks package verifies them with either secret of a roll', () => {
    const current = generateSecret();
    const previous = generateSecret();
    expect(current).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const id = 'msg_2f9d1c0e-0000-7000-8000-000000000001';
    const timestamp = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ type: 'product.updated', timestamp: new Date().toISOString(), data: { id: 'x' } });
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signatureHeader([current, previous], id, timestamp, body) };
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(current).verify(body.replace('x', 'y'), headers)).toThrow();
  });
});
