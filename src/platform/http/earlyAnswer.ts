/** Keeping a connection usable when an answer goes out before the request body was read. */

import type { IncomingMessage, ServerResponse } from 'node:http';

/** How much of an unread request body is read and discarded after an early answer to keep the connection. */
const DRAIN_MAX_BYTES = 4 * 1024 * 1024;
/** How long that may take before the connection is closed instead. */
const DRAIN_TIMEOUT_MS = 5000;

/**
 * Keeps a keep-alive connection usable when the service answers before it has read the request
 * body to its end (413, 401, 404, a refused upload...). HTTP/1.1 sends the next request on the
 * same connection after the body, so an unread body stands between the client and every later
 * answer; reading all of it, however large, is no better.
 *
 * - A body that may be small (a declared Content-Length within DRAIN_MAX_BYTES, or chunked) is
 *   read and discarded once the answer is sent, up to DRAIN_MAX_BYTES and DRAIN_TIMEOUT_MS;
 *   past either bound the connection is closed.
 * - A body declared larger, or one whose stream was torn down, is answered with
 *   `Connection: close` and the connection is closed after the answer.
 *
 * Call it first thing for every request.
 */
export function guardEarlyAnswer(req: IncomingMessage, res: ServerResponse, opts: { maxBytes?: number; timeoutMs?: number } = {}): void {
  const maxBytes = opts.maxBytes ?? DRAIN_MAX_BYTES;
  const timeoutMs = opts.timeoutMs ?? DRAIN_TIMEOUT_MS;
  const declared = Number(req.headers['content-length']);
  // ServerResponse writes its head through writeHead (end() without one calls it too): the last moment to say "close".
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    if (!req.complete && (req.destroyed || declared > maxBytes)) this.setHeader('Connection', 'close');
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as typeof res.writeHead;

  res.once('finish', () => {
    if (req.complete || req.socket.destroyed) return;
    if (!res.hasHeader('connection') || String(res.getHeader('connection')).toLowerCase() !== 'close') drain(req, maxBytes, timeoutMs);
    // With Connection: close, node ends the connection itself once the answer is written.
  });
}

/** Reads and discards the rest of the body; closes the connection past the bounds. */
function drain(req: IncomingMessage, maxBytes: number, timeoutMs: number) {
  let read = 0;
  const close = () => {
    cleanup();
    req.socket.destroy();
  };
  const onData = (chunk: Buffer) => {
    read += chunk.length;
    if (read > maxBytes) close();
  };
  const timer = setTimeout(close, timeoutMs);
  timer.unref();
  const cleanup = () => {
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', cleanup);
    req.off('close', cleanup);
  };
  req.unpipe(); // whatever was parsing the body (an upload parser) has nothing more to do
  req.on('data', onData);
  req.once('end', cleanup);
  req.once('close', cleanup);
  req.resume();
}
