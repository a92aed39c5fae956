import { EVENT_TYPES } from '../../src/kernel/events';
import { startTestServer, type TestServer } from '../helpers/harness';

/** The event catalogue over GraphQL (the dashboard's webhook form lists it): every type, no credential needed. */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

it('eventTypes lists the whole catalogue, newest types included, to anyone', async () => {
  const res = await t.graphql('{ eventTypes }', {});
  expect(res.body.data.eventTypes).toEqual([...EVENT_TYPES]);
  expect(res.body.data.eventTypes).toEqual(expect.arrayContaining(['product.created', 'product.images_updated', 'member.added']));
});
