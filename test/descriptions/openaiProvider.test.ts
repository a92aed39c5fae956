import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createProduct, expectGqlError, expectProblem, gqlData, productsPath } from '../products/helpers';

/**
 * A local stand-in for an OpenAI-compatible API (/v1/chat/completions), so the
 * real HTTP provider (the official SDK) is exercised end to end without a network.
 */
type Behaviour = 'ok' | 'long' | 'empty' | 'error500' | 'error401' | 'hang' | 'stall_body' | 'drop' | 'not_json';
let behaviour: Behaviour = 'ok';
const reply = 'A sturdy mug for slow mornings.\n\nIt keeps coffee warm.';
const seen: { url?: string; headers: IncomingHttpHeaders; body: any }[] = [];

let provider: Server;
let t: TestServer;
let a: StoreFixture;

beforeAll(async () => {
  provider = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    seen.push({ url: req.url, headers: req.headers, body: JSON.parse(raw) });
    const completion = (content: string | null) =>
      JSON.stringify({
        id: 'chatcmpl-test',
        object: 'chat.completion',
        created: 1_700_000_000,
        model: 'tiny-model',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      });
    const send = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    };
    switch (behaviour) {
      case 'ok':
        return send(200, completion(reply));
      case 'long':
        return send(200, completion(Array.from({ length: 40 }, (_, i) => `Sentence number ${i} is here.`).join(' ')));
      case 'empty':
        return send(200, completion(''));
      case 'error500':
        return send(500, JSON.stringify({ error: { message: 'upstream secret detail', type: 'server_error' } }));
      case 'error401':
        return send(401, JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }));
      case 'hang':
        return; // never answers
      case 'stall_body':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"id": "chatcmpl-test", ');
        return; // headers sent, body never finishes
      case 'drop':
        return req.socket.destroy();
      case 'not_json':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('<html>gateway</html>');
    }
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  const port = (provider.address() as AddressInfo).port;
  t = await startTestServer({ AI_BASE_URL: `http://127.0.0.1:${port}/v1`, AI_API_KEY: 'sk-test-key', AI_MODEL: 'tiny-model', AI_TIMEOUT_MS: '1500' });
  a = await createStoreFixture();
  // The first call loads the SDK's lazy parts; keep that out of the deadline-sensitive tests.
  await generate({ name: 'warm-up' });
});
afterAll(async () => {
  await t.close();
  provider.closeAllConnections();
  await new Promise<void>((resolve) => provider.close(() => resolve()));
});
beforeEach(() => {
  behaviour = 'ok';
  seen.length = 0;
});

const generate = (body: unknown) => t.request('POST', `${productsPath(a.storeId)}/generate-description`, { token: a.ownerToken, body });
const GENERATE = `mutation($storeId: ID!, $input: DescriptionInput!) { generateProductDescription(storeId: $storeId, input: $input) { description provider model } }`;

describe('the OpenAI-compatible provider', () => {
  it('returns the model text (paragraphs kept) with provider and model, sending the facts and instructions', async () => {
    const res = await generate({ name: 'Harbor Mug', category: 'Kitchen', attributes: { Capacity: '350 ml', dishwasher_safe: true }, tags: ['coffee'], tone: 'luxury', language: 'de', max_words: 50 });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ description: reply, provider: 'openai', model: 'tiny-model' });

    expect(seen).toHaveLength(1);
    const [call] = seen;
    expect(call.url).toBe('/v1/chat/completions');
    expect(call.headers.authorization).toBe('Bearer sk-test-key');
    expect(call.body.model).toBe('tiny-model');
    const [system, user] = call.body.messages;
    expect(system.role).toBe('system');
    expect(system.content).toContain('German');
    expect(system.content).toContain('luxury');
    expect(system.content).toContain('at most 50 words');
    expect(JSON.parse(user.content)).toEqual({ name: 'Harbor Mug', category: 'Kitchen', attributes: { Capacity: ['350 ml'], dishwasher_safe: ['true'] }, tags: ['coffee'] });
  });

  it('writes any language the model can (no local language list)', async () => {
    const res = await generate({ name: 'Tasse', language: 'fr' });
    expect(res.status).toBe(200);
    expect(seen[0].body.messages[0].content).toContain('French');
  });

  it('sends the product facts when given product_id', async () => {
    const p = await createProduct(t, a, { name: 'Canvas Tote', tags: ['beach'] });
    const res = await generate({ product_id: p.id });
    expect(res.status).toBe(200);
    expect(JSON.parse(seen[0].body.messages[1].content)).toMatchObject({ name: 'Canvas Tote', tags: ['beach'] });
  });

  it('cuts an overlong answer to max_words at a sentence end', async () => {
    behaviour = 'long';
    const text: string = (await generate({ name: 'Mug', max_words: 22 })).body.data.description;
    expect(text.split(/\s+/).length).toBeLessThanOrEqual(22);
    expect(text).toMatch(/\.$/);
  });

  it('serves GraphQL through the same provider', async () => {
    const res = gqlData(await t.graphql(GENERATE, { storeId: a.storeId, input: { name: 'Mug' } }, { token: a.ownerToken }));
    expect(res.generateProductDescription).toEqual({ description: reply, provider: 'openai', model: 'tiny-model' });
  });
});

describe('provider failures become 502/504 problems, never a hang', () => {
  it.each([
    ['an HTTP 500', 'error500' as const],
    ['an HTTP 401 (bad key)', 'error401' as const],
    ['an empty completion', 'empty' as const],
    ['a dropped connection', 'drop' as const],
    ['a body that is not JSON', 'not_json' as const],
  ])('answers 502 provider_error for %s', async (_what, b) => {
    behaviour = b;
    const problem = expectProblem(await generate({ name: 'Mug' }), 502, 'provider_error');
    expect(problem.detail).not.toContain('upstream secret detail');
    expectGqlError(await t.graphql(GENERATE, { storeId: a.storeId, input: { name: 'Mug' } }, { token: a.ownerToken }), 'provider_error');
  });

  it('reports the upstream status', async () => {
    behaviour = 'error500';
    const problem = expectProblem(await generate({ name: 'Mug' }), 502, 'provider_error');
    expect(problem.provider_status).toBe(500);
    expect(seen).toHaveLength(1); // no retries
  });

  it.each([
    ['never answers', 'hang' as const],
    ['stalls after the response headers', 'stall_body' as const],
  ])('answers 504 provider_timeout when the provider %s', async (_what, b) => {
    behaviour = b;
    expectProblem(await generate({ name: 'Mug' }), 504, 'provider_timeout');
    expectGqlError(await t.graphql(GENERATE, { storeId: a.storeId, input: { name: 'Mug' } }, { token: a.ownerToken }), 'provider_timeout');
  });

  it('still validates before calling the provider', async () => {
    expectProblem(await generate({ name: 'Mug', max_words: 1000 }), 422, 'validation_failed');
    expect(seen).toHaveLength(0);
  });
});
