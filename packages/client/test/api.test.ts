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

const ok =
  (body: unknown, code = 200): Step =>
  (response) =>
    sendJson(response, code, body);
const status =
  (code: number, headers: Record<string, string> = {}): Step =>
  (response) =>
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
      onRequest: ({ request }) =>
        new PreparedRequest(request.url.replace('/v4/get-order/', '/v3/get-order/'), {
          ...(request as unknown as PreparedRequest).init,
        }) as unknown as Request,
    });
    await expect(api.GET('/v4/get-order/{id}', { params: { path: { id: 'id' } } })).resolves.toMatchObject({ data: orders.success });
    expect(sent()[0]!.pathname).toBe('/v3/get-order/id');
    expect(sent()[0]!.headers.authorization).toBe(`Bearer ${apiKey}`);
  });

  test('a new PreparedRequest from request.init keeps the method, body and signal of a write', async () => {
    const api = scripted([ok(createdOrders.onramp, 201)]);
    const controller = new AbortController();
    let signal: AbortSignal | null = null;
    api.use({
      onRequest: ({ request }) => {
        const moved = new PreparedRequest(request.url.replace('/v4/', '/v3/'), { ...(request as unknown as PreparedRequest).init });
        signal = moved.signal;
        return moved as unknown as Request;
      },
    });
    await api.POST('/v4/create-order', { body: quotes.onramp!, signal: controller.signal });
    expect(signal).toBe(controller.signal);
    const [request] = sent();
    expect([request!.method, request!.pathname]).toEqual(['POST', '/v3/create-order']);
    expect(JSON.parse(request!.body)).toEqual(quotes.onramp);
  });

  test('a middleware that returns a plain Request is refused (by openapi-fetch, whose Request class is PreparedRequest), and nothing is sent', async () => {
    const api = scripted([ok(orders.success)]);
    api.use({ onRequest: ({ request }) => new Request(request.url) });
    await expect(api.GET('/v4/get-order/{id}', { params: { path: { id: 'id' } } })).rejects.toThrow(
      'onRequest: must return new Request() or Response() when modifying the request',
    );
    expect(sent()).toHaveLength(0);
  });

  test('an onResponse middleware may clone and read the answer, and the call still gets its data', async () => {
    const api = scripted([ok(orders.success)]);
    const read: unknown[] = [];
    api.use({
      onResponse: async ({ response }) => {
        const copy = response.clone();
        read.push(await copy.json(), copy.status, copy.url, copy.headers.get('content-type'));
      },
    });
    const { data, response } = await api.GET('/v4/get-order/{id}', { params: { path: { id: 'id' } } });
    expect(data).toEqual(orders.success);
    expect(read).toEqual([orders.success, 200, `${server.url}/v4/get-order/id`, expect.stringContaining('application/json')]);
    expect(await response.clone().clone().text()).toBe(JSON.stringify(orders.success));
  });
});

describe('parseAs', () => {
  const call = (api: ReturnType<typeof scripted>, parseAs: 'text' | 'blob' | 'arrayBuffer' | 'stream') =>
    api.GET('/v4/get-order/{id}', { params: { path: { id: 'id' } }, parseAs });
  const expected = () => JSON.stringify(orders.success);

  test('text', async () => {
    expect((await call(scripted([ok(orders.success)]), 'text')).data).toBe(expected());
  });

  test('blob', async () => {
    const { data } = await call(scripted([ok(orders.success)]), 'blob');
    expect(data).toBeInstanceOf(Blob);
    expect(await (data as Blob).text()).toBe(expected());
    expect((data as Blob).type).toContain('application/json');
  });

  test('arrayBuffer', async () => {
    const { data } = await call(scripted([ok(orders.success)]), 'arrayBuffer');
    expect(new TextDecoder().decode(data as ArrayBuffer)).toBe(expected());
  });

  test('stream', async () => {
    const { data } = await call(scripted([ok(orders.success)]), 'stream');
    expect(await new Response(data as ReadableStream).text()).toBe(expected());
  });
});
