/** The SSRF guard on webhook URLs: only public addresses, checked at every connection. */

import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from '../../platform/errors';

/**
 * The guard against server-side request forgery. A webhook URL is chosen by a
 * merchant, so without it the service could be made to POST to its own
 * loopback interface, the private network it runs in, or a cloud metadata
 * service. Only public unicast addresses are allowed; the check runs on the
 * addresses a name resolves to, at creation and again at every attempt (the
 * connection uses the address that was checked, so a name that resolves
 * differently a moment later, DNS rebinding, cannot slip through). Redirects
 * are never followed (src/events/webhooks/deliver.ts). `allowPrivate`
 * (WEBHOOK_ALLOW_PRIVATE_TARGETS=true) lifts all of it, for tests and local development.
 */

export const MAX_URL_LENGTH = 2048;

/** Host names that are private whatever they resolve to. */
const PRIVATE_NAMES = /^(?:localhost|.*\.localhost|.*\.internal|.*\.local|metadata|instance-data)$/i;

/** Why an address may not be a webhook target (its ipaddr.js range, e.g. `loopback`, `private`, `linkLocal`), or null when it may. */
export function forbiddenRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'invalid';
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  return range === 'unicast' ? null : range;
}

const isLoopbackHost = (host: string) => {
  const bare = host.replace(/^\[|\]$/g, '');
  if (/^localhost$/i.test(bare) || /\.localhost$/i.test(bare)) return true;
  return ipaddr.isValid(bare) && forbiddenRange(bare) === 'loopback';
};

const urlError = (message: string, code: 'webhook_url_forbidden' | 'validation_failed' = 'validation_failed') =>
  new AppError(code, `url: ${message}`, { errors: [{ field: 'url', code: code === 'validation_failed' ? 'invalid_value' : code, message }] });

/**
 * Checks a webhook URL before it is stored: absolute, https (http only for a
 * loopback host when private targets are allowed), no credentials, and a host
 * that neither names nor resolves to a forbidden address. A name that does not
 * resolve yet is accepted (its DNS may come later); delivery checks it again.
 * `nameTheSetting` (outside production): a refusal that WEBHOOK_ALLOW_PRIVATE_TARGETS
 * would lift says so, for the developer whose receiver runs on their own machine;
 * a production service does not advertise how to turn its guard off.
 */
export async function checkWebhookUrl(raw: string, opts: { allowPrivate: boolean; nameTheSetting?: boolean; lookup?: typeof dnsLookup }): Promise<string> {
  if (raw.length > MAX_URL_LENGTH) throw urlError(`must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw urlError('must be an absolute URL such as https://example.com/webhooks');
  }
  const httpsOnly = `must be an https URL${opts.nameTheSetting ? `; http is accepted only for a loopback host (localhost, 127.0.0.1), and only with ${SETTING_HINT}` : ''}`;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw urlError(httpsOnly);
  if (url.protocol === 'http:' && !(opts.allowPrivate && isLoopbackHost(url.hostname))) throw urlError(httpsOnly);
  if (url.username || url.password) throw urlError('must not contain a user name or password');
  if (url.hash) throw urlError('must not contain a fragment (#…)');
  if (opts.allowPrivate) return url.toString();
  const publicOnly = `webhooks go to public addresses only${opts.nameTheSetting ? `; a receiver on this machine or network needs ${SETTING_HINT}` : ''}`;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) {
    const range = forbiddenRange(host);
    if (range) throw urlError(`targets a ${describeRange(range)} address (${host}); ${publicOnly}`, 'webhook_url_forbidden');
    return url.toString();
  }
  if (PRIVATE_NAMES.test(host)) throw urlError(`targets a private host name (${host}); ${publicOnly}`, 'webhook_url_forbidden');
  const addresses = await resolveAll(host, opts.lookup ?? dnsLookup).catch(() => [] as LookupAddress[]);
  for (const a of addresses) {
    const range = forbiddenRange(a.address);
    if (range) throw urlError(`${host} resolves to a ${describeRange(range)} address (${a.address}); ${publicOnly}`, 'webhook_url_forbidden');
  }
  return url.toString();
}

/** How a refusal outside production names the setting that lifts the guard, and the page that explains it. */
const SETTING_HINT = 'WEBHOOK_ALLOW_PRIVATE_TARGETS=true, for local development (see /docs/errors/webhook_url_forbidden)';

function resolveAll(host: string, lookup: typeof dnsLookup): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('DNS lookup timed out')), 3000);
    lookup(host, { all: true }, (err, addresses) => {
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(addresses as LookupAddress[]);
    });
  });
}

/**
 * The check at delivery for what a lookup never sees: a host that is an IP
 * literal (Node connects to it without a lookup) or a private name. Throws
 * ForbiddenTargetError; guardedLookup covers every resolved name.
 */
export function assertDeliverableHost(hostname: string, opts: { allowPrivate: boolean }): void {
  if (opts.allowPrivate) return;
  const host = hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) {
    const range = forbiddenRange(host);
    if (range) throw new ForbiddenTargetError(`${host} is a ${describeRange(range)} address; webhooks go to public addresses only`);
  } else if (PRIVATE_NAMES.test(host)) {
    throw new ForbiddenTargetError(`${host} is a private host name; webhooks go to public addresses only`);
  }
}

/** The error a delivery attempt records when the target resolved to a forbidden address. */
export class ForbiddenTargetError extends Error {
  readonly code = 'EFORBIDDENTARGET';
}

/**
 * A `lookup` for http.request: resolves the host and refuses the connection if
 * any of its addresses is forbidden, so the socket connects only to an address
 * that passed the check. With `allowPrivate` it is plain dns.lookup.
 */
export function guardedLookup(opts: { allowPrivate: boolean; lookup?: typeof dnsLookup }): LookupFunction {
  const lookup = opts.lookup ?? dnsLookup;
  return ((hostname: string, options: { all?: boolean; family?: number }, callback: (...args: unknown[]) => void) => {
    lookup(hostname, { ...options, all: true } as never, (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
      if (err) return callback(err);
      if (!opts.allowPrivate) {
        const bad = addresses.find((a) => forbiddenRange(a.address));
        if (bad) {
          return callback(
            new ForbiddenTargetError(`${hostname} resolved to ${bad.address}, a ${describeRange(forbiddenRange(bad.address)!)} address; webhooks go to public addresses only`),
          );
        }
      }
      if (options?.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  }) as unknown as LookupFunction;
}

const RANGE_NAMES: Record<string, string> = {
  loopback: 'loopback',
  private: 'private',
  uniqueLocal: 'private (unique local)',
  linkLocal: 'link-local (cloud metadata)',
  multicast: 'multicast',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  carrierGradeNat: 'shared (carrier-grade NAT)',
  reserved: 'reserved',
};
const describeRange = (range: string) => RANGE_NAMES[range] ?? `non-public (${range})`;
