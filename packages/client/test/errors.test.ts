/** Every way a call fails, and the error it gives. */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  GatewayApiError,
  GatewayNetworkError,
  GatewayResponseError,
  GatewayTimeoutError,
  createGatewayClient,
  isGatewayApiError,
  isGatewayError,
  isGatewayNetworkError,
  isGatewayTimeoutError,
} from '../src/index.js';
import { document, errorExamples, validator } from './support/document.js';
import { orders, quoteParams, quotes, registerTxBody } from './support/fixtures.js';
import { type TestServer, closedPortUrl, sendJson, startTestServer } from './support/server.js';
import { failure } from './support/failure.js';

type Answer = (response: import('node:http').ServerResponse) => void;
let answer: Answer;
let server: TestServer;
let client: ReturnType<typeof createGatewayClient>;

beforeAll(async () => {
  server = await startTestServer((_request, response) => answer(response));
  client = createGatewayClient({ baseUrl: server.url, retry: false });
});
afterAll(() => server.close());

/** A call of each documented operation, by path and method. */
const callOf: Record<string, () => Promise<unknown>> = {
  'GET /v4/get-routes': () => client.getRoutes(),
  'GET /v4/get-quote': () => client.getQuote(quoteParams),
  'POST /v4/create-order': () => client.createOrder(quotes.onramp!),
  'PATCH /v4/register-tx': () => client.registerTx(registerTxBody),
  'GET /v4/get-order/{id}': () => client.getOrder('id'),
  'GET /v4/get-orders/{user_address}': () => client.getOrders('address'),
  'GET /v4/get-max-spendable/{address}': () => client.getMaxSpendable('address'),
  'POST /v3/create-order': () => client.createOrderV3(quotes.tokenSwap as never),
  'GET /v3/get-order/{id}': () => client.getOrderV3('id'),
  'GET /v3/get-orders/{user_address}': () => client.getOrdersV3('address'),
};

describe('every documented error answer becomes a GatewayApiError with its fields', () => {
  const examples = errorExamples();
  test('the document has error examples', () => expect(examples.length).toBeGreaterThan(40));

  test.each(examples.map((e) => [`${e.method} ${e.path} ${e.status} ${e.name}`, e] as const))('%s', async (_name, example) => {
    answer = (response) => sendJson(response, example.status, example.body);
    const error = await failure(callOf[`${example.method} ${example.path}`]!());
    expect(error).toBeInstanceOf(GatewayApiError);
    const apiError = error as GatewayApiError;
    const body = example.body as { code?: string; error?: string; details?: unknown };
    expect(apiError.kind).toBe('http');
    expect(apiError.status).toBe(example.status);
    expect(apiError.code).toBe(body.code);
    expect(apiError.error).toBe(body.error);
    expect(apiError.details).toEqual(body.details);
    expect(apiError.body).toEqual(body);
    expect(JSON.parse(apiError.rawBody)).toEqual(body);
  });
});

describe('each detail shape of the document is read as sent', () => {
  // One sample per oneOf branch of GatewayErrorDetails, built from the branch's own properties.
  const branches = (document.components.schemas as Record<string, { oneOf: Branch[] }>).GatewayErrorDetails!.oneOf;
  interface Branch {
    title: string;
    type: string;
    properties?: Record<string, { type: string | string[] }>;
  }
  const sample = (branch: Branch): unknown =>
    branch.type === 'null'
      ? null
      : Object.fromEntries(
          Object.entries(branch.properties!).map(([name, schema]) => [
            name,
            schema.type === 'array' ? ['bc1qflagged', '0xflagged'] : `${name}-value`,
          ]),
        );

  test('there are twelve shapes, null included', () => expect(branches).toHaveLength(12));

  test.each(branches.map((branch) => [branch.title, sample(branch)] as const))('%s', async (_title, details) => {
    const { valid, errors } = validator.validate(validator.schemaPointer('GatewayErrorDetails'), details);
    expect(valid, validator.describe(errors)).toBe(true);
    answer = (response) => sendJson(response, 400, { code: 'INVALID_REQUEST', error: 'bad', details });
    const error = (await failure(client.getQuote(quoteParams))) as GatewayApiError;
    expect(error.details).toEqual(details);
    expect(error.code).toBe('INVALID_REQUEST');
  });
});

describe('bodies that are not the error shape', () => {
  test('a body that is not JSON keeps its raw text', async () => {
    const html = '<html><body>502 Bad Gateway</body></html>';
    answer = (response) => {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end(html);
    };
    const error = (await failure(client.getOrder('id'))) as GatewayApiError;
    expect(error).toBeInstanceOf(GatewayApiError);
    expect(error.status).toBe(502);
    expect(error.rawBody).toBe(html);
    expect(error.body).toBeUndefined();
    expect(error.code).toBeUndefined();
    expect(error.error).toBeUndefined();
    expect(error.details).toBeUndefined();
    expect(error.message).toContain('502 Bad Gateway');
  });

  test('JSON that is not the error shape keeps the body and the raw text', async () => {
    const raw = '{"message":"Forbidden by proxy"}';
    answer = (response) => {
      response.writeHead(403, { 'content-type': 'application/json' });
      response.end(raw);
    };
    const error = (await failure(client.getOrder('id'))) as GatewayApiError;
    expect(error.status).toBe(403);
    expect(error.body).toEqual({ message: 'Forbidden by proxy' });
    expect(error.rawBody).toBe(raw);
    expect(error.code).toBeUndefined();
  });

  test('an empty body', async () => {
    answer = (response) => {
      response.writeHead(500);
      response.end();
    };
    const error = (await failure(client.getOrder('id'))) as GatewayApiError;
    expect(error.status).toBe(500);
    expect(error.rawBody).toBe('');
  });

  test('a register-tx error without a code keeps error and details', async () => {
    const body = { error: 'the payment is short', details: { expected: '1000000', actual: '999000' } };
    answer = (response) => sendJson(response, 400, body);
    const error = (await failure(client.registerTx(registerTxBody))) as GatewayApiError;
    expect(error.code).toBeUndefined();
    expect(error.error).toBe(body.error);
    expect(error.details).toEqual(body.details);
  });
});

describe('a 2xx answer that is not JSON', () => {
  test.each([
    ['an HTML page', '<html>login</html>', 'a body that is not JSON: <html>login</html>'],
    ['an empty body', '', 'an empty body'],
  ])('%s is a GatewayResponseError with the request, the status and the raw body, not retried by waitForOrder', async (_, raw, said) => {
    let reads = 0;
    answer = (response) => {
      reads++;
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(raw);
    };
    const error = (await failure(client.waitForOrder('id', { intervalMs: 1 }))) as GatewayResponseError;
    expect(error).toBeInstanceOf(GatewayResponseError);
    expect(isGatewayError(error)).toBe(true);
    expect(error).toMatchObject({ kind: 'response', method: 'GET', url: `${server.url}/v4/get-order/id`, status: 200, rawBody: raw });
    expect(error.message).toBe(`GET ${server.url}/v4/get-order/id answered 200 with ${said}`);
    expect(error.cause).toBeInstanceOf(SyntaxError);
    expect(reads).toBe(1);
  });
});

describe('failures without an answer', () => {
  test('a refused connection is a network error', async () => {
    const offline = createGatewayClient({ baseUrl: await closedPortUrl(), retry: false });
    const error = await failure(offline.getOrder('id'));
    expect(error).toBeInstanceOf(GatewayNetworkError);
    expect(isGatewayNetworkError(error)).toBe(true);
    expect(isGatewayTimeoutError(error)).toBe(false);
    expect(isGatewayApiError(error)).toBe(false);
    expect((error as GatewayNetworkError).kind).toBe('network');
    expect((error as GatewayNetworkError).cause).toBeInstanceOf(Error);
    expect((error as GatewayNetworkError).message).toMatch(/ECONNREFUSED/);
  });

  test('no answer within timeoutMs is a timeout, distinct from a network error', async () => {
    answer = () => undefined; // never answers; the server closes the connection at the end
    const slow = createGatewayClient({ baseUrl: server.url, retry: false, timeoutMs: 50 });
    const started = Date.now();
    const error = await failure(slow.getOrder('id'));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toBeInstanceOf(GatewayTimeoutError);
    expect(isGatewayTimeoutError(error)).toBe(true);
    expect(isGatewayNetworkError(error)).toBe(false);
    expect((error as GatewayTimeoutError).timeoutMs).toBe(50);
  });

  test('a body that stops half-way is caught by the timeout too', async () => {
    answer = (response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"id":');
    };
    const slow = createGatewayClient({ baseUrl: server.url, retry: false, timeoutMs: 50 });
    expect(await failure(slow.getOrder('id'))).toBeInstanceOf(GatewayTimeoutError);
  });

  test("the caller's abort rejects with the signal's reason, not a client error", async () => {
    answer = () => undefined;
    const controller = new AbortController();
    const call = client.getOrder('id', { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const error = await failure(call);
    expect(isGatewayError(error)).toBe(false);
    expect((error as DOMException).name).toBe('AbortError');
  });

  test('an already aborted signal sends nothing', async () => {
    const before = server.requests.length;
    const error = await failure(client.getOrder('id', { signal: AbortSignal.abort() }));
    expect((error as DOMException).name).toBe('AbortError');
    expect(server.requests.length).toBe(before);
  });
});

describe('type guards', () => {
  test('isGatewayApiError narrows by code', async () => {
    answer = (response) => sendJson(response, 400, { code: 'MISSING_REFUND_ADDRESS', error: 'no refund address' });
    const error = await failure(client.createOrder(quotes.onramp!));
    expect(isGatewayError(error)).toBe(true);
    expect(isGatewayApiError(error)).toBe(true);
    expect(isGatewayApiError(error, 'MISSING_REFUND_ADDRESS')).toBe(true);
    expect(isGatewayApiError(error, 'NO_ROUTE')).toBe(false);
    expect(isGatewayApiError(new Error('other'))).toBe(false);
  });

  test('a 2xx answer is not an error', async () => {
    answer = (response) => sendJson(response, 200, orders.success);
    await expect(client.getOrder('id')).resolves.toEqual(orders.success);
  });
});
