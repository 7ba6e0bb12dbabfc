/**
 * Every V4 and V3 operation of the document through the named layer: the request the server receives
 * is valid against the document, and the documented answer comes back as it was sent.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createGatewayClient, type GatewayClient } from '../src/index.js';
import { operation, operations, requestBodySchemaPointer, responseExample, validator } from './support/document.js';
import { quoteParams, quotes, quotesV3, registerTxBody } from './support/fixtures.js';
import { type ReceivedRequest, type TestServer, sendJson, startTestServer } from './support/server.js';

interface Case {
  path: string;
  method: string;
  /** The concrete path the client must call. */
  pathname: string;
  call: (client: GatewayClient) => Promise<unknown>;
  /** The documented answer the server gives, by status and example name. */
  answer: [status: string, example: string];
  query?: Record<string, string>;
  body?: unknown;
}

const orderId = '8d3c7a0e-5f1b-4b6e-9a51-2f0c7e4d9b12';
const userAddress = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

const cases: Record<string, Case> = {
  getRoutesV4: { path: '/v4/get-routes', method: 'get', pathname: '/v4/get-routes', call: (c) => c.getRoutes(), answer: ['200', 'routes'] },
  getQuoteV4: {
    path: '/v4/get-quote',
    method: 'get',
    pathname: '/v4/get-quote',
    call: (c) => c.getQuote({ ...quoteParams, slippage: '300', affiliates: '0x1111111111111111111111111111111111111111:25' }),
    answer: ['200', 'onramp'],
    query: { ...quoteParams, slippage: '300', affiliates: '0x1111111111111111111111111111111111111111:25' },
  },
  createOrderV4: {
    path: '/v4/create-order',
    method: 'post',
    pathname: '/v4/create-order',
    call: (c) => c.createOrder(quotes.tokenSwapSolana!),
    answer: ['201', 'tokenSwapSolana'],
    body: quotes.tokenSwapSolana,
  },
  registerTxV4: {
    path: '/v4/register-tx',
    method: 'patch',
    pathname: '/v4/register-tx',
    call: (c) => c.registerTx(registerTxBody),
    answer: ['200', 'txidObject'],
    body: registerTxBody,
  },
  getOrderV4: {
    path: '/v4/get-order/{id}',
    method: 'get',
    pathname: `/v4/get-order/${orderId}`,
    call: (c) => c.getOrder(orderId),
    answer: ['200', 'inProgressPendingBtcPayment'],
  },
  getOrdersV4: {
    path: '/v4/get-orders/{user_address}',
    method: 'get',
    pathname: `/v4/get-orders/${userAddress}`,
    call: (c) => c.getOrders(userAddress, { cursor: 'abc', limit: 2 }),
    answer: ['200', 'firstPage'],
    query: { cursor: 'abc', limit: '2' },
  },
  getMaxSpendableV4: {
    path: '/v4/get-max-spendable/{address}',
    method: 'get',
    pathname: `/v4/get-max-spendable/${userAddress}`,
    call: (c) => c.getMaxSpendable(userAddress),
    answer: ['200', 'maxSpendable'],
  },
  createOrderV3: {
    path: '/v3/create-order',
    method: 'post',
    pathname: '/v3/create-order',
    call: (c) => c.createOrderV3(quotesV3.offramp!),
    answer: ['201', 'offramp'],
    body: quotesV3.offramp,
  },
  getOrderV3: {
    path: '/v3/get-order/{id}',
    method: 'get',
    pathname: `/v3/get-order/${orderId}`,
    call: (c) => c.getOrderV3(orderId),
    answer: ['200', 'refunded'],
  },
  getOrdersV3: {
    path: '/v3/get-orders/{user_address}',
    method: 'get',
    pathname: `/v3/get-orders/${userAddress}`,
    call: (c) => c.getOrdersV3(userAddress, { limit: 1 }),
    answer: ['200', 'lastPage'],
    query: { limit: '1' },
  },
};

let server: TestServer;
let client: GatewayClient;
let current: Case | undefined;

beforeAll(async () => {
  server = await startTestServer((_request, response) => {
    const [status, example] = current!.answer;
    sendJson(response, Number(status), responseExample(current!.path, current!.method, status, example));
  });
  client = createGatewayClient({ baseUrl: server.url, retry: false });
});
afterAll(() => server.close());

test('the named layer covers every operation of the document', () => {
  expect(Object.keys(cases).sort()).toEqual(operations.map((op) => op.operationId).sort());
});

describe.each(Object.entries(cases))('%s', (operationId, testCase) => {
  let received: ReceivedRequest;
  let result: unknown;

  beforeAll(async () => {
    current = testCase;
    const before = server.requests.length;
    result = await testCase.call(client);
    expect(server.requests.length).toBe(before + 1);
    received = server.requests.at(-1)!;
  });

  test('sends the documented method and path', () => {
    expect(operation(testCase.path, testCase.method).operationId).toBe(operationId);
    expect(received.method).toBe(testCase.method.toUpperCase());
    expect(received.pathname).toBe(testCase.pathname);
  });

  test('sends exactly the query parameters given', () => {
    expect(Object.fromEntries(received.query)).toEqual(testCase.query ?? {});
  });

  test('sends a body that is valid against the document, unchanged', () => {
    if (testCase.body === undefined) {
      expect(received.body).toBe('');
      return;
    }
    const sent = JSON.parse(received.body) as unknown;
    expect(sent).toEqual(testCase.body);
    expect(received.headers['content-type']).toBe('application/json');
    const { valid, errors } = validator.validate(requestBodySchemaPointer(testCase.path, testCase.method), sent);
    expect(valid, validator.describe(errors)).toBe(true);
  });

  test('returns the documented answer as sent', () => {
    const [status, example] = testCase.answer;
    expect(result).toEqual(responseExample(testCase.path, testCase.method, status, example));
  });
});

test('path parameters are percent-encoded', async () => {
  current = cases.getOrderV4;
  await client.getOrder('a/b c');
  expect(server.requests.at(-1)!.pathname).toBe('/v4/get-order/a%2Fb%20c');
});

describe("path values that would make the URL another operation's are refused before any request", () => {
  test.each(['', '.', '..', undefined as unknown as string])('getOrder(%j)', async (id) => {
    current = cases.getOrderV4;
    const before = server.requests.length;
    await expect(client.getOrder(id)).rejects.toThrow(new RangeError(`id must not be ${id ? `'${id}'` : 'empty'}`));
    expect(server.requests.length).toBe(before);
  });

  test('a value that only contains dots is sent, encoded', async () => {
    current = cases.getOrderV4;
    await client.getOrder('...');
    expect(server.requests.at(-1)!.pathname).toBe('/v4/get-order/...');
  });
});
