/**
 * The entry points' first import (src/server.ts, src/worker.ts): tracing, when
 * configured, must hook `http` and `pg` before any other module loads them.
 */
import { startTracing } from './platform/tracing';

startTracing();
