// Preloaded (node -r) into every benchmarked server. Answers the bench over
// the IPC channel with the number of SQL statements the process has sent:
// the service's own counter (src/platform/db/client queryCount()), or the counter a
// baseline publishes on globalThis. Passive otherwise.
'use strict';

function queryCount() {
  if (typeof globalThis.__benchQueryCount === 'function') return globalThis.__benchQueryCount();
  const modulePath = process.env.BENCH_DB_CLIENT_MODULE;
  if (!modulePath) return null;
  try {
    const database = require(modulePath).currentDatabase();
    return database ? database.queryCount() : null;
  } catch {
    return null;
  }
}

if (process.send) {
  process.on('message', (message) => {
    if (message && message.type === 'stats') process.send({ type: 'stats', id: message.id, queries: queryCount() });
  });
  // The channel must not keep a server alive that was asked to stop.
  process.channel && process.channel.unref();
}
