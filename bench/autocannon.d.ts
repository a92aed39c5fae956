// The part of autocannon's API the bench uses (its own package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    overallRate?: number;
    timeout?: number;
    sampleInt?: number;
    requests?: unknown[];
  }
  interface Result {
    errors: number;
    timeouts: number;
  }
  type Instance = EventEmitter & PromiseLike<Result> & { stop(): void };
  function autocannon(options: Options): Instance;
  export default autocannon;
}
