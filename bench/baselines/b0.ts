/**
 * B0: node:http answering every request with a fixed JSON body (the
 * transport ceiling). The bench sets the body to the service's response of
 * the scenario being measured (PUT /__body), so both move the same bytes.
 */
import { createServer } from 'node:http';

let body = Buffer.from('{"status":"ok"}');

const server = createServer((req, res) => {
  if (req.url === '/__body' && req.method === 'PUT') {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      body = Buffer.concat(chunks);
      res.writeHead(204).end();
    });
    return;
  }
  // Uploads and other bodies are received in full, as a real handler would.
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
  });
});

server.listen(Number(process.env.PORT), '127.0.0.1');
