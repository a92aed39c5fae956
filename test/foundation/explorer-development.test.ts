// NODE_ENV decides the Pothos unused-query check and Yoga's error details when the schema and the app
// are built, so it is set before anything imports them.
import '../helpers/developmentEnv';
import { builder } from '../../src/api/graphql/builder';
import { VIEWER_EXAMPLE } from '../../src/api/explorer';
import { startTestServer, type TestServer } from '../helpers/harness';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ NODE_ENV: 'development' });
});
afterAll(() => t.close());

describe('NODE_ENV=development', () => {
  it('keeps the unused-query check on', () => {
    expect(process.env.NODE_ENV).toBe('development');
    expect(builder.options.prisma.onUnusedQuery).toBe('error');
  });

  it('{ viewer { id } } and the explorer\'s first tab answer viewer: null without errors', async () => {
    for (const query of ['{ viewer { id } }', VIEWER_EXAMPLE]) {
      const res = await t.graphql(query);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { viewer: null } });
    }
  });
});
