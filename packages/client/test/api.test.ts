/**
 * `@swap-gateway/client/api`: openapi-fetch's client with the options and the transport of
 * `createGatewayClient`, against a real node:http server: typed operations, the key, the structured
 * errors, retries, and openapi-fetch's middlewares.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PreparedRequest, createGatewayApi } from '../src/api.js';
import { GatewayApiError, GatewayTimeoutError } from '../src/index.js';
import { createdOrders, firstPage, orders, quotes } from './support/fixtures.js';
import { type TestServer, sendJson, startTestServer } from './support/server.js';
import { failure } from './support/failure.js';

type Step = (response: ServerResponse) => void;
let script: Step[];
let server: TestServer;
let sinceStart: number;

const ok = (body: unknown, code = 200): Step => (response) => sendJson(response, code, body);
const status = (code: number, headers: Record<string, string> = {}): Step => (response) =>
  sendJson(response, code, { code: code === 429 ? 'EXCEEDED_LIMIT' : 'INTERNAL_ERROR', error: `status ${code}` }, headers);

beforeAll(async () => {
  server = await startTestServer((_request, response, index) => (script[index - sinceStart] ?? status(599))(response));
});
afterAll(() => server.close());

const apiKey = 'k'.repeat(32);

/** An api whose backoff is short enough for tests; `script` is what the server answers, in order. */
function scripted(steps: Step[], options: Parameters<typeof createGatewayApi>[0] = {}) {
  script = steps;
  sinceStart = server.requests.length;
  return createGatewayApi({ baseUrl: server.url, apiKey, retry: { baseDelayMs: 1, maxDelayMs: 5 }, ...options });
}
const sent = () => server.requests.slice(sinceStart);

describe('operations', () => {
  test('a GET with path and query parameters resolves to { data, response }, with the key', async () => {
    const api = scripted([ok(firstPage)]);
    const { data, response } = await api.GET('/v4/get-orders/{user_address}', {
      params: { path: { user_address: 'a/b' }, query: { limit: 2 } },
    });
    expect(data).toEqual(firstPage);
    expect(response.status).toBe(200);
    expect(response.url).toBe(`${server.url}/v4/get-orders/a%2Fb?limit=2`);
    const [request] = sent();
    expect(request!.pathname).toBe('/v4/get-orders/a%2Fb');
    expect(Object.fromEntries(request!.query)).toEqual({ limit: '2' });
    expect(request!.headers.authorization).toBe(`Bearer ${apiKey}`);
  });

  test('a POST sends the JSON body', async () => {
    const api = scripted([ok(createdOrders.onramp, 201)]);
    const { data } = await api.POST('/v4/create-order', { body: quotes.onramp! });
    expect(data).toEqual(createdOrders.onramp);
    const [request] = sent();
    expect(request!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request!.body)).toEqual(quotes.onramp);
  });
});

describe('the transport of the core', () => {
  test('a non-2xx answer throws a GatewayApiError with its fields', async () => {
    const api = scripted([(response) => sendJson(response, 404, { code: 'ORDER_NOT_FOUND', error: 'no such order', details: null })]);
    const error = (await failure(api.GET('/v4/get-order/{id}', { params: { path: { id: 'x' } } }))) as GatewayApiError;
    expect(error).toBeInstanceOf(GatewayApiError);
    expect([error.status, error.code, error.error, error.details]).toEqual([404, 'ORDER_NOT_FOUND', 'no such order', null]);
  });

  test('reads are retried on 5xx, create-order is not', async () => {
    let api = scripted([status(503), ok(orders.success)]);
    await expect(api.GET('/v4/get-order/{id}', { params: { path: { id: 'x' } } })).resolves.toMatchObject({ data: orders.success });
    expect(sent()).toHaveLength(2);
    api = scripted([status(503), ok(createdOrders.onramp, 201)]);
    expect(((await failure(api.POST('/v4/create-order', { body: quotes.onramp! }))) as GatewayApiError).status).toBe(503);
    expect(sent()).toHaveLength(1);
  });

  test('timeoutMs applies per attempt', async () => {
    const api = scripted([() => undefined], { retry: false, timeoutMs: 50 });
    expect(await failure(api.GET('/v4/get-order/{id}', { params: { path: { id: 'x' } } }))).toBeInstanceOf(GatewayTimeoutError);
  });
});

describe('openapi-fetch middlewares', () => {
  test('a header set by a middleware goes with every attempt, and a write is resent whole on 429', async () => {
    const api = scripted([status(429, { 'Retry-After': '0' }), ok(createdOrders.onramp, 201)]);
    api.use({
      onRequest: ({ request }) => {
        request.headers.set('x-middleware', 'yes');
      },
    });
    await expect(api.POST('/v4/create-order', { body: quotes.onramp! })).resolves.toMatchObject({ data: createdOrders.onramp });
    expect(sent()).toHaveLength(2);
    for (const request of sent()) {
      expect(request.headers['x-middleware']).toBe('yes');
      expect(request.headers.authorization).toBe(`Bearer ${apiKey}`);
      expect(JSON.parse(request.body)).toEqual(quotes.onramp);
    }
  });

  test('a middleware may send the call elsewhere with a new PreparedRequest', async () => {
    const api = scripted([ok(orders.success)]);
    api.use({
      onRequest: ({ request }) => new PreparedRequest(request.url.replace('/v4/get-order/', '/v3/get-order/'), { headers: request.headers }) as unknown as Request,
    });
    await expect(api.GET('/v4/get-order/{id}', { params: { path: { id: 'id' } } })).resolves.toMatchObject({ data: orders.success });
    expect(sent()[0]!.pathname).toBe('/v3/get-order/id');
  });
});
