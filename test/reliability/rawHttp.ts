import { connect, type Socket } from 'node:net';

/** One HTTP/1.1 response as read off a raw socket. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A raw TCP connection to the server, for what fetch hides: writing a body in pieces, reading the
 * answer before the body is complete, and reusing the same connection for the next request.
 */
export class RawConnection {
  private buffer = Buffer.alloc(0);
  private ended = false;
  private waiters: (() => void)[] = [];
  readonly socket: Socket;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on('data', (d: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, d]);
      this.wake();
    });
    const end = () => {
      this.ended = true;
      this.wake();
    };
    socket.on('end', end);
    socket.on('close', end);
    socket.on('error', end); // ECONNRESET: the server closed on us; the test sees `closed`
  }

  static open(url: string): Promise<RawConnection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }

  get closed(): boolean {
    return this.ended;
  }

  /** Writes, ignoring a server that has stopped reading (EPIPE / reset): that is what some tests provoke. */
  write(data: string | Buffer): Promise<void> {
    if (this.socket.destroyed || !this.socket.writable) return Promise.resolve();
    return new Promise((resolve) => this.socket.write(data, () => resolve()));
  }

  /** Resolves when more bytes arrived or the connection ended; false after `ms` without either. */
  private more(ms: number): Promise<boolean> {
    if (this.ended) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /**
   * Reads one response (Content-Length or chunked body). null when the connection ended first;
   * throws when nothing completes within `ms` (a hang).
   */
  async readResponse(ms = 5000): Promise<RawResponse | null> {
    const deadline = Date.now() + ms;
    for (;;) {
      const parsed = parseResponse(this.buffer);
      if (parsed) {
        this.buffer = this.buffer.subarray(parsed.length);
        return parsed.response;
      }
      if (this.ended) return null;
      const left = deadline - Date.now();
      if (left <= 0 || !(await this.more(left))) {
        if (this.ended) return parseResponse(this.buffer)?.response ?? null;
        throw new Error(`no response within ${ms} ms (buffered: ${JSON.stringify(this.buffer.toString('latin1').slice(0, 200))})`);
      }
    }
  }

  /** Resolves true once the server has closed the connection, false if it is still open after `ms`. */
  async waitClosed(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!this.ended && Date.now() < deadline) await this.more(deadline - Date.now());
    return this.ended;
  }

  destroy() {
    this.socket.destroy();
  }
}

function parseResponse(buf: Buffer): { response: RawResponse; length: number } | null {
  const headEnd = buf.indexOf('\r\n\r\n');
  if (headEnd < 0) return null;
  const lines = buf.subarray(0, headEnd).toString('latin1').split('\r\n');
  const status = Number(lines[0].split(' ')[1]);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let at = headEnd + 4;
  if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
    const parts: Buffer[] = [];
    for (;;) {
      const lineEnd = buf.indexOf('\r\n', at);
      if (lineEnd < 0) return null;
      const size = parseInt(buf.subarray(at, lineEnd).toString('latin1'), 16);
      if (buf.length < lineEnd + 2 + size + 2) return null;
      parts.push(buf.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
      if (size === 0) break;
    }
    return { response: { status, headers, body: Buffer.concat(parts).toString('utf8') }, length: at };
  }
  const length = Number(headers['content-length'] ?? 0);
  if (buf.length < at + length) return null;
  return { response: { status, headers, body: buf.subarray(at, at + length).toString('utf8') }, length: at + length };
}

/** A chunk of a chunked request body. */
export const chunk = (data: string | Buffer) => {
  const b = typeof data === 'string' ? Buffer.from(data) : data;
  return Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n')]);
};
export const LAST_CHUNK = '0\r\n\r\n';
