/** Sending a streamed REST response (exports). */

import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { RequestContext } from '../../platform/context';

/**
 * Sends a streamed response: the first chunk is read before the status line, so an error at the start
 * (the database gone) still becomes a problem document; after that, chunks are written as they come, waiting
 * for the socket to drain. An error mid-way cannot change the status any more: the response is cut short
 * (no final chunk), so the client sees an incomplete transfer rather than a file that merely looks complete.
 */
export async function sendStream(res: ServerResponse, out: { headers: Record<string, string>; body: AsyncIterable<string | Uint8Array> }, ctx: RequestContext, head: boolean) {
  const iterator = out.body[Symbol.asyncIterator]();
  const first = await iterator.next();
  res.statusCode = 200;
  for (const [k, v] of Object.entries(out.headers)) res.setHeader(k, v);
  if (head) {
    await iterator.return?.();
    res.end();
    return;
  }
  try {
    for (let next = first; !next.done; next = await iterator.next()) {
      if (res.destroyed) {
        await iterator.return?.();
        return;
      }
      if (!res.write(next.value)) await once(res, 'drain');
    }
    res.end();
  } catch (err) {
    ctx.log.error({ err }, 'streamed response failed part-way; connection closed');
    res.destroy(err as Error);
  }
}
