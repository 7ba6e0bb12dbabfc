/**
 * The retry rules: reads are retried on network failures, timeouts, 429 and 5xx; create-order and
 * register-tx only on 429, so that a payment is never sent twice.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type GatewayApiError, GatewayNetworkError, GatewayTimeoutError, createGatewayClient } from '../src/index.js';
import { backoffDelay, parseRetryAfter, resolveRetryPolicy } from '../src/retry.js';
import { createdOrders, orders, quotes, registerTxBody } from './support/fixtures.js';
import { type TestServer, dropConnection, sendJson, startTestServer } from './support/server.js';
import { failure } from './support/failure.js';

type Step = (response: ServerResponse) => void;
let script: Step[];
let server: TestServer;
let sinceStart: number;

const status =
  (code: number, headers: Record<string, string> = {}): Step =>
  (response) =>
    sendJson(response, code, { code: code === 429 ? 'EXCEEDED_LIMIT' : 'INTERNAL_ERROR', error: `status ${code}` }, headers);
const drop: Step = dropConnection;
const hang: Step = () => undefined;
const ok =
  (body: unknown, code = 200): Step =>
  (response) =>
    sendJson(response, code, body);

beforeAll(async () => {
  server = await startTestServer((_request, response, index) => {
    const step = script[index - sinceStart] ?? status(599);
    step(response);
  });
});
afterAll(() => server.close());

/** A client whose backoff is short enough for tests; `script` is what the server answers, in order. */
function scripted(steps: Step[], options: Parameters<typeof createGatewayClient>[0] = {}) {
  script = steps;
  sinceStart = server.requests.length;
  return createGatewayClient({ baseUrl: server.url, retry: { baseDelayMs: 1, maxDelayMs: 5 }, ...options });
}
const attempts = () => server.requests.length - sinceStart;

describe('reads (GET)', () => {
  test('are retried on 5xx until they succeed', async () => {
    const client = scripted([status(503), status(500), ok(orders.success)]);
    await expect(client.getOrder('id')).resolves.toEqual(orders.success);
    expect(attempts()).toBe(3);
  });

  test('give up after `retries` and throw the last answer', async () => {
    const client = scripted([status(500), status(502), status(504)], { retry: { retries: 1, baseDelayMs: 1 } });
    const error = (await failure(client.getOrder('id'))) as GatewayApiError;
    expect(error.status).toBe(502);
    expect(attempts()).toBe(2);
  });

  test('are retried on a network failure', async () => {
    const client = scripted([drop, ok(orders.success)]);
    await expect(client.getOrder('id')).resolves.toEqual(orders.success);
    expect(attempts()).toBe(2);
  });

  test('are retried when a 2xx answer breaks off in its body', async () => {
    const brokenOff: Step = (response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      response.write('{"id":', () => response.socket?.destroy());
    };
    const client = scripted([brokenOff, ok(orders.success)]);
    await expect(client.getOrder('id')).resolves.toEqual(orders.success);
    expect(attempts()).toBe(2);
  });

  // The timeouts of these two tests leave the request time to reach the server even on a loaded
  // machine: the script answers requests in the order they arrive.
  test('are retried after a timeout', async () => {
    const client = scripted([hang, ok(orders.success)], { timeoutMs: 1_000 });
    await expect(client.getOrder('id')).resolves.toEqual(orders.success);
    expect(attempts()).toBe(2);
  });

  test('are not retried on other 4xx', async () => {
    const client = scripted([status(404), ok(orders.success)]);
    expect(((await failure(client.getOrder('id'))) as GatewayApiError).status).toBe(404);
    expect(attempts()).toBe(1);
  });

  test('honour Retry-After on 429', async () => {
    const client = scripted([status(429, { 'Retry-After': '1' }), ok(orders.success)]);
    const started = Date.now();
    await expect(client.getOrder('id')).resolves.toEqual(orders.success);
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
    expect(attempts()).toBe(2);
  });

  test('a Retry-After beyond maxRetryAfterMs is not waited for', async () => {
    const client = scripted([status(429, { 'Retry-After': '120' }), ok(orders.success)]);
    const started = Date.now();
    const error = (await failure(client.getOrder('id'))) as GatewayApiError;
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error.status).toBe(429);
    expect(error.retryAfterMs).toBe(120_000);
    expect(attempts()).toBe(1);
  });

  test('an abort during the backoff stops at once', async () => {
    const client = scripted([status(429, { 'Retry-After': '30' }), ok(orders.success)], { retry: { maxRetryAfterMs: 60_000 } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const error = await failure(client.getOrder('id', { signal: controller.signal }));
    expect((error as DOMException).name).toBe('AbortError');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(attempts()).toBe(1);
  });
});

describe('create-order and register-tx', () => {
  test.each([500, 502, 503, 504])('create-order is never retried on %i', async (code) => {
    const client = scripted([status(code), ok(createdOrders.onramp, 201)]);
    expect(((await failure(client.createOrder(quotes.onramp!))) as GatewayApiError).status).toBe(code);
    expect(attempts()).toBe(1);
  });

  test('create-order is never retried after a lost answer', async () => {
    const client = scripted([drop, ok(createdOrders.onramp, 201)]);
    expect(await failure(client.createOrder(quotes.onramp!))).toBeInstanceOf(GatewayNetworkError);
    expect(attempts()).toBe(1);
  });

  test('create-order is never retried after a timeout', async () => {
    const client = scripted([hang, ok(createdOrders.onramp, 201)], { timeoutMs: 1_000 });
    expect(await failure(client.createOrder(quotes.onramp!))).toBeInstanceOf(GatewayTimeoutError);
    expect(attempts()).toBe(1);
  });

  test('create-order is retried on 429, with the same quote', async () => {
    const client = scripted([status(429, { 'Retry-After': '0' }), ok(createdOrders.onramp, 201)]);
    await expect(client.createOrder(quotes.onramp!)).resolves.toEqual(createdOrders.onramp);
    expect(attempts()).toBe(2);
    const [first, second] = server.requests.slice(sinceStart);
    expect(JSON.parse(second!.body)).toEqual(quotes.onramp);
    expect(second!.body).toBe(first!.body);
  });

  test('V3 create-order follows the same rule', async () => {
    const client = scripted([status(500), ok(createdOrders.onramp, 201)]);
    expect(((await failure(client.createOrderV3(quotes.tokenSwap as never))) as GatewayApiError).status).toBe(500);
    expect(attempts()).toBe(1);
  });

  test('register-tx is never retried on 5xx, and retried on 429', async () => {
    let client = scripted([status(500), ok('txid')]);
    expect(((await failure(client.registerTx(registerTxBody))) as GatewayApiError).status).toBe(500);
    expect(attempts()).toBe(1);
    client = scripted([status(429), ok('txid')]);
    await expect(client.registerTx(registerTxBody)).resolves.toBe('txid');
    expect(attempts()).toBe(2);
  });
});

describe('configuration', () => {
  test('retry: false sends every request once', async () => {
    const client = scripted([status(503), ok(orders.success)], { retry: false });
    expect(((await failure(client.getOrder('id'))) as GatewayApiError).status).toBe(503);
    expect(attempts()).toBe(1);
  });

  test('retries sets the number of attempts after the first', async () => {
    const client = scripted([status(500), status(500), status(500), status(500), ok(orders.success)], {
      retry: { retries: 4, baseDelayMs: 1 },
    });
    await expect(client.getOrder('id')).resolves.toEqual(orders.success);
    expect(attempts()).toBe(5);
  });

  test('the backoff doubles from baseDelayMs up to maxDelayMs, jittered below that ceiling', () => {
    const policy = resolveRetryPolicy({ baseDelayMs: 100, maxDelayMs: 500 });
    const ceilings = [0, 1, 2, 3, 4].map((attempt) => backoffDelay(policy, attempt, () => 1));
    expect(ceilings).toEqual([100, 200, 400, 500, 500]);
    expect(backoffDelay(policy, 2, () => 0.25)).toBe(100);
    expect(backoffDelay(policy, 2, () => 0)).toBe(0);
  });

  test('defaults: two retries; false turns them off', () => {
    expect(resolveRetryPolicy(undefined)).toEqual({ retries: 2, baseDelayMs: 250, maxDelayMs: 5000, maxRetryAfterMs: 60_000 });
    expect(resolveRetryPolicy(false).retries).toBe(0);
  });

  test('a field given as undefined takes its default, as a missing one does', () => {
    expect(resolveRetryPolicy({ retries: undefined, baseDelayMs: 100, maxDelayMs: undefined, maxRetryAfterMs: undefined })).toEqual({
      retries: 2,
      baseDelayMs: 100,
      maxDelayMs: 5000,
      maxRetryAfterMs: 60_000,
    });
  });
});

describe('Retry-After', () => {
  test('delay-seconds and HTTP dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });
});
