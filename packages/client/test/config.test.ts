/** Addresses, the API key and headers. */
import { apiKeyLength } from '@swap-gateway/openapi';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createGatewayClient, defaultEnvironments } from '../src/index.js';
import { document } from './support/document.js';
import { createdOrders, orders, quoteParams, quotes, registerTxBody } from './support/fixtures.js';
import { type TestServer, sendJson, startTestServer } from './support/server.js';

const apiKey = 'k'.repeat(32);
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer((request, response) => {
    if (request.pathname === '/v4/get-quote') return sendJson(response, 200, quotes.onramp);
    if (request.pathname === '/v4/create-order') return sendJson(response, 201, createdOrders.onramp);
    if (request.pathname === '/v4/register-tx') return sendJson(response, 200, 'txid');
    if (request.pathname.startsWith('/v4/get-order/')) return sendJson(response, 200, orders.success);
    sendJson(response, 404, { code: 'INVALID_REQUEST', error: 'unknown path' });
  });
});
afterAll(() => server.close());

/** A flow of four calls, one of each method the API uses. */
async function flow(client: ReturnType<typeof createGatewayClient>): Promise<void> {
  const quote = await client.getQuote(quoteParams);
  await client.createOrder(quote);
  await client.registerTx(registerTxBody);
  await client.getOrder('id');
}

describe('API key', () => {
  // The length is the document's (@swap-gateway/openapi's apiKeyLength); the client keeps its own
  // constant so that its runtime does not load the document, and this test holds the two equal.
  test.each([0, 1, apiKeyLength - 1, apiKeyLength + 1, 2 * apiKeyLength])(
    'a key of %i characters is refused before any request',
    (length) => {
      const before = server.requests.length;
      expect(() => createGatewayClient({ baseUrl: server.url, apiKey: 'k'.repeat(length) })).toThrow(
        new RangeError(`apiKey must be exactly ${apiKeyLength} characters, got ${length}; omit it to call the API without a key`),
      );
      expect(server.requests.length).toBe(before);
    },
  );

  test("a key of the document's length is accepted", () => {
    expect(() => createGatewayClient({ baseUrl: server.url, apiKey: 'k'.repeat(apiKeyLength) })).not.toThrow();
  });

  test('with a key, every request carries Authorization: Bearer <key>', async () => {
    const before = server.requests.length;
    await flow(createGatewayClient({ baseUrl: server.url, apiKey }));
    const sent = server.requests.slice(before);
    expect(sent.map((r) => r.method)).toEqual(['GET', 'POST', 'PATCH', 'GET']);
    for (const request of sent) expect(request.headers.authorization).toBe(`Bearer ${apiKey}`);
  });

  test('without a key, no request carries an Authorization header', async () => {
    const before = server.requests.length;
    await flow(createGatewayClient({ baseUrl: server.url }));
    const sent = server.requests.slice(before);
    expect(sent).toHaveLength(4);
    for (const request of sent) expect(request.headers).not.toHaveProperty('authorization');
  });

  test('custom headers go with every request, and the key wins over a custom Authorization', async () => {
    const before = server.requests.length;
    await flow(createGatewayClient({ baseUrl: server.url, apiKey, headers: { 'x-partner': 'acme', Authorization: 'Basic x' } }));
    for (const request of server.requests.slice(before)) {
      expect(request.headers['x-partner']).toBe('acme');
      expect(request.headers.authorization).toBe(`Bearer ${apiKey}`);
    }
  });
});

describe('addresses', () => {
  test.each(['production', 'staging'] as const)('environment %s resolves to its configured address', async (environment) => {
    const client = createGatewayClient({ environment, environments: { [environment]: server.url } });
    expect(client.baseUrl).toBe(server.url);
    const before = server.requests.length;
    await client.getOrder('id');
    expect(server.requests.length).toBe(before + 1);
  });

  test('a baseUrl that is no http(s) address or path is refused before any request', () => {
    for (const baseUrl of ['localhost:8080', '127.0.0.1:8080', 'ftp://gateway.example', 'gateway.example']) {
      expect(() => createGatewayClient({ baseUrl }), baseUrl).toThrow(RangeError);
    }
    for (const baseUrl of ['http://127.0.0.1:8080', 'https://gateway.example/api', '/api', '']) {
      expect(createGatewayClient({ baseUrl }).baseUrl, baseUrl).toBe(baseUrl);
    }
  });

  test('a custom baseUrl always wins', () => {
    const client = createGatewayClient({ baseUrl: server.url, environment: 'staging' });
    expect(client.baseUrl).toBe(server.url);
  });

  test('production is the default', () => {
    expect(createGatewayClient().baseUrl).toBe(defaultEnvironments.production);
    expect(createGatewayClient({ environment: 'staging' }).baseUrl).toBe(defaultEnvironments.staging);
  });

  test("the default addresses are the document's production and staging servers", () => {
    const servers = document.servers as { url: string; description: string; variables: Record<string, { default: string }> }[];
    const resolve = (description: string) => {
      const server = servers.find((s) => s.description === description)!;
      return server.url.replace(/\{(\w+)\}/g, (_, name: string) => server.variables[name]!.default);
    };
    expect(defaultEnvironments).toEqual({ production: resolve('Production.'), staging: resolve('Staging.') });
  });

  test('a custom fetch is used for every request', async () => {
    const seen: string[] = [];
    const client = createGatewayClient({
      baseUrl: server.url,
      fetch: (input, init) => {
        seen.push(`${init.method} ${new URL(input).pathname}`);
        return fetch(input, init);
      },
    });
    await flow(client);
    expect(seen).toEqual(['GET /v4/get-quote', 'POST /v4/create-order', 'PATCH /v4/register-tx', 'GET /v4/get-order/id']);
  });

  test('a fetch hook gets a Headers of its own per attempt: what it sets goes with that attempt only', async () => {
    const sentHeaders: (string | null)[] = [];
    let call = 0;
    const client = createGatewayClient({
      baseUrl: server.url,
      apiKey,
      headers: { 'x-app': 'a' },
      fetch: (input, init) => {
        expect(init.headers).toBeInstanceOf(Headers);
        sentHeaders.push(init.headers.get('x-trace'));
        init.headers.set('x-trace', String(++call));
        init.headers.delete('x-app');
        return fetch(input, init);
      },
    });
    await flow(client);
    expect(sentHeaders).toEqual([null, null, null, null]);
    const last = server.requests.slice(-4);
    expect(last.map((request) => request.headers['x-trace'])).toEqual(['1', '2', '3', '4']);
    expect(last.map((request) => request.headers['x-app'])).toEqual([undefined, undefined, undefined, undefined]);
    expect(last.every((request) => request.headers.authorization === `Bearer ${apiKey}`)).toBe(true);
    // The options' headers are untouched: the next client call without the hook still sends them.
    const plain = createGatewayClient({ baseUrl: server.url, headers: { 'x-app': 'a' } });
    await plain.getOrder('id');
    expect(server.requests.at(-1)!.headers['x-app']).toBe('a');
  });

  test('a fetch hook that throws (a bug of the app) fails the call with its error, not retried as an outage', async () => {
    const bug = new TypeError('init.headers.append is not a function');
    let calls = 0;
    const client = createGatewayClient({
      baseUrl: server.url,
      retry: { baseDelayMs: 1 },
      fetch: () => {
        calls++;
        throw bug;
      },
    });
    await expect(client.getOrder('id')).rejects.toBe(bug);
    expect(calls).toBe(1);
  });
});
