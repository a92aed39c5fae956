/** Options of the service's HTTP server (timeouts, keep-alive). */

import type { ServerOptions } from 'node:http';
import type { Config } from '../config';

/**
 * Options of the service's HTTP server. node waits up to 300 s for a request by default, so a
 * client that sends its headers or body a byte at a time holds a connection (and its memory) for
 * five minutes; REQUEST_TIMEOUT_MS and HEADERS_TIMEOUT_MS bound that (408, connection closed).
 * node checks those timeouts every connectionsCheckingInterval (30 s by default), which would
 * stretch a 15 s limit to 45 s: check often enough for the limits to mean what they say.
 */
export function httpServerOptions(config: Pick<Config, 'http'>): ServerOptions {
  const { requestTimeoutMs, headersTimeoutMs } = config.http;
  return {
    // Longer than the idle timeout of common load balancers (60 s), so they never reuse a connection node is closing.
    keepAliveTimeout: 65_000,
    requestTimeout: requestTimeoutMs,
    headersTimeout: headersTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(headersTimeoutMs / 4))),
  };
}
