import type { DomainEvent } from '../../src/kernel/events';
import { changeView } from '../../src/events/services/views';
import { eventMessageBodyFromJson, MAX_PAYLOAD_BYTES, messageBody } from '../../src/events/webhooks/payload';

const event = (data: Record<string, unknown>): DomainEvent => ({
  id: '019ab1d2-7c4e-7a10-9f3e-2b6f0c1d4e5a',
  type: 'product.updated',
  storeId: '5b0c9d3e-1f2a-4b5c-8d7e-9f0a1b2c3d4e',
  mode: 'live',
  occurredAt: new Date('2026-11-23T18:40:12.345Z'),
  actor: { kind: 'user', id: 'u1', name: 'Ana "the owner" \u2603 \u0000' },
  source: 'merchant_rest',
  requestId: 'req-1',
  resource: { type: 'product', id: 'p1', version: 3 },
  data,
  changes: [{ field: 'price', previous: 89.5, next: 99 }],
});

describe('the body of an event message', () => {
  it('is byte for byte what JSON.stringify makes of {type, timestamp, data: the event as the change history shows it}', () => {
    const e = event({ id: 'p1', name: 'Trail runner \u00e9\u{1F45F}', price: 99, tags: ['a', 'b'], seo: null, nested: { x: [1, 2.5, -3] } });
    const body = eventMessageBodyFromJson(e, JSON.stringify(e.data), JSON.stringify(e.changes));
    expect(body).toBe(messageBody(e.type, e.occurredAt, changeView(e)));
    expect(JSON.parse(body)).toEqual({ type: 'product.updated', timestamp: '2026-11-23T18:40:12.345Z', data: JSON.parse(JSON.stringify(changeView(e))) });
  });

  it('leaves out the resource and its changes past 256 KB, saying so', () => {
    const e = event({ id: 'p1', description: 'x'.repeat(MAX_PAYLOAD_BYTES) });
    const body = eventMessageBodyFromJson(e, JSON.stringify(e.data), JSON.stringify(e.changes));
    expect(Buffer.byteLength(body)).toBeLessThan(MAX_PAYLOAD_BYTES);
    const parsed = JSON.parse(body);
    expect(parsed.data).toMatchObject({ id: e.id, resource: { type: 'product', id: 'p1', version: 3 }, data: null, changes: null, truncated: true });
  });
});
