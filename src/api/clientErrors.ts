/** Problem documents for requests node's HTTP parser refuses before any handler runs. */

import type { Server } from 'node:http';
import { errorTypeUri } from './docs/errorCatalog';
import { type ErrorCode, STATUS_BY_CODE } from '../platform/errors';

/**
 * Requests node's HTTP parser refuses before any handler runs (headers over
 * the size limit, a malformed request line, a request or header timeout) are
 * answered with a problem document like every other error, instead of node's
 * bare status line, and the connection is closed. No header was read, so the problem's `type` is on
 * `publicBaseUrl` when one is configured, and a relative reference otherwise.
 */
export function answerClientErrors(server: Server, publicBaseUrl?: string): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [code, detail]: [ErrorCode, string] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? ['headers_too_large', 'The request line and headers are larger than the server accepts (16 KB): send long values in the body']
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? ['request_timeout', 'The request was not received in time']
          : ['bad_request', 'The request is not valid HTTP'];
    const status = STATUS_BY_CODE[code];
    const body = JSON.stringify({ type: errorTypeUri(publicBaseUrl, code), title: TITLES[status], status, code, detail });
    socket.end(
      `HTTP/1.1 ${status} ${TITLES[status]}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

const TITLES: Partial<Record<number, string>> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };
