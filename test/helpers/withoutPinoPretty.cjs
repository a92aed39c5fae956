// Preloaded (node --require) to run a process as a production install would: `npm ci --omit=dev`
// leaves out development dependencies, pino-pretty among them.
const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'pino-pretty' || request.startsWith('pino-pretty/')) {
    const err = new Error(`Cannot find module '${request}'`);
    err.code = 'MODULE_NOT_FOUND';
    throw err;
  }
  return resolve.call(this, request, ...rest);
};
