/**
 * A webhook receiver for the benchmark: a child process (pinned with the load
 * generator, on the partner's side of the wire) that answers every POST with
 * 204 at once and counts what arrives. `GET /stats` answers
 * `{received, unique}`: deliveries, and distinct webhook-ids among them.
 */
import { createServer } from 'node:http';

let received = 0;
const ids = new Set<string>();

const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
  if (req.method === 'GET' && req.url === '/stats') {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ received, unique: ids.size }));
    return;
  }
  req.resume();
  req.on('end', () => {
    received++;
    const id = req.headers['webhook-id'];
    if (typeof id === 'string') ids.add(id);
    res.statusCode = 204;
    res.end();
  });
});

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ type: 'listening', port: typeof address === 'object' && address ? address.port : 0 });
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
