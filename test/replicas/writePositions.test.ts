import pino from 'pino';
import { parseLsn } from '../../src/platform/db/replicas';
import { createWritePositions } from '../../src/platform/db/writePositions';
import { describeIndependentOfDatabase } from '../helpers/serverProcess';

/**
 * The record read-your-writes keeps per client (src/platform/db/writePositions.ts): the larger of two positions
 * (two instances may record a client's writes out of order), forgotten after its time, in this process or in Redis.
 */
const log = pino({ level: 'silent' });
const client = () => `test:${process.pid}:${Math.random().toString(36).slice(2)}`;

describeIndependentOfDatabase('write positions', () => {
  it('reads a WAL position as one comparable number', () => {
    expect(parseLsn('0/3000000')).toBe(0x3000000n);
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) + 0xb374d848n);
    expect(parseLsn('1/0') > parseLsn('0/FFFFFFFF')).toBe(true);
  });

  it('keeps the latest of a client\'s positions in this process, for its time only', async () => {
    const positions = createWritePositions({ ttlMs: 150, log });
    const c = client();
    expect(await positions.lastWrite(c)).toBeNull();
    await positions.record(c, 100n);
    await positions.record(c, 90n);
    expect(await positions.lastWrite(c)).toBe(100n);
    await new Promise((r) => setTimeout(r, 200));
    expect(await positions.lastWrite(c)).toBeNull();
    await positions.close();
  });
});

(process.env.REDIS_URL ? describe : describe.skip)('write positions in Redis', () => {
  it('keeps the latest of a client\'s positions for every instance, for its time only', async () => {
    const [a, b] = [0, 1].map(() => createWritePositions({ redisUrl: process.env.REDIS_URL, ttlMs: 300, log }));
    const c = client();
    await a.record(c, 2n ** 40n + 5n);
    await b.record(c, 2n ** 40n);
    expect(await b.lastWrite(c)).toBe(2n ** 40n + 5n);
    expect(await a.lastWrite(client())).toBeNull();
    await new Promise((r) => setTimeout(r, 400));
    expect(await a.lastWrite(c)).toBeNull();
    await Promise.all([a.close(), b.close()]);
  });
});
