/** waitForOrder: polls until a final state, and never takes a failed read for one. */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { GatewayOrderInfoV3 } from '@swap-gateway/types';
import { GatewayApiError, GatewayTimeoutError, createGatewayClient, stateOf } from '../src/index.js';
import { orders } from './support/fixtures.js';
import { type TestServer, dropConnection, sendJson, startTestServer } from './support/server.js';

type Step = (response: ServerResponse) => void;
let script: Step[];
/**
 * The order the current test waits for, new in each: a test that ends while its read is on the way
 * (a deadline, an abort) can leave that request arriving after the next test began, and it must
 * count as none of that test's reads nor take one of its answers.
 */
let orderId = '';
let tests = 0;
let server: TestServer;

const order =
  (name: string): Step =>
  (response) =>
    sendJson(response, 200, orders[name]);
const status =
  (code: number, body: unknown = { code: 'INTERNAL_ERROR', error: `status ${code}` }): Step =>
  (response) =>
    sendJson(response, code, body);
const drop: Step = dropConnection;

/** The current test's reads so far. */
const reads = () => server.requests.filter((request) => request.pathname === `/v4/get-order/${orderId}`).length;

beforeAll(async () => {
  server = await startTestServer((request, response) => {
    // A late read of an earlier test's order gets an answer of no consequence.
    if (request.pathname !== `/v4/get-order/${orderId}`) return order('inProgress')(response);
    (script[Math.min(reads() - 1, script.length - 1)] ?? order('inProgress'))(response);
  });
});
afterAll(() => server.close());

/** Without client retries, so that every failed read reaches waitForOrder itself. */
function scripted(steps: Step[]) {
  script = steps;
  orderId = `order-${++tests}`;
  return createGatewayClient({ baseUrl: server.url, retry: false });
}

describe('ends at each final state', () => {
  test.each(['success', 'failed', 'refunded'])('%s', async (final) => {
    const client = scripted([order('inProgress'), order('inProgressPendingBtcPayment'), order(final)]);
    const updates: string[] = [];
    const settled = await client.waitForOrder(orderId, { intervalMs: 5, onUpdate: (o) => updates.push(stateOf(o).state) });
    expect(settled).toEqual(orders[final]);
    expect(updates).toEqual(['inProgress', 'inProgress', final]);
    expect(reads()).toBe(3);
    expect(server.requests.at(-1)!.pathname).toBe(`/v4/get-order/${orderId}`);
  });
});

test('returns at once an order that is already settled', async () => {
  const client = scripted([order('success')]);
  await expect(client.waitForOrder(orderId, { intervalMs: 10_000 })).resolves.toEqual(orders.success);
  expect(reads()).toBe(1);
});

test('reads through 5xx, 429 and network failures, and only then returns', async () => {
  const client = scripted([
    order('inProgress'),
    status(500),
    drop,
    status(429, { code: 'EXCEEDED_LIMIT', error: 'slow down' }),
    status(503, '<html>unavailable</html>'),
    order('inProgress'),
    order('success'),
  ]);
  const updates: string[] = [];
  const settled = await client.waitForOrder(orderId, { intervalMs: 2, onUpdate: (o) => updates.push(stateOf(o).state) });
  expect(settled).toEqual(orders.success);
  expect(reads()).toBe(7);
  // The failed reads did not produce an update, let alone a final one, and the second read of the
  // same order is no update either.
  expect(updates).toEqual(['inProgress', 'success']);
});

test('calls onUpdate with the first order read and then only when the order changed', async () => {
  const client = scripted([
    order('inProgress'),
    order('inProgress'),
    order('inProgressPendingBtcPayment'),
    order('inProgressPendingBtcPayment'),
    order('inProgressPendingBtcPayment'),
    order('success'),
  ]);
  const updates: GatewayOrderInfoV3[] = [];
  await client.waitForOrder(orderId, { intervalMs: 2, onUpdate: (o) => updates.push(o) });
  expect(reads()).toBe(6);
  expect(updates).toEqual([orders.inProgress, orders.inProgressPendingBtcPayment, orders.success]);
});

test('backs off after failed reads: the delay doubles with each one', async () => {
  const client = scripted([status(500), status(500), status(500), order('success')]);
  const started = Date.now();
  await client.waitForOrder(orderId, { intervalMs: 40 });
  // Jittered between half and all of 80, 160 and 320 ms: at least 280 ms in all.
  expect(Date.now() - started).toBeGreaterThanOrEqual(270);
  expect(reads()).toBe(4);
});

test('a failed read whose body looks like a final state is not taken for one', async () => {
  const client = scripted([status(500, orders.success), order('inProgress'), order('refunded')]);
  await expect(client.waitForOrder(orderId, { intervalMs: 2 })).resolves.toEqual(orders.refunded);
  expect(reads()).toBe(3);
});

test('an answer that is not an outage ends the wait with its error', async () => {
  const client = scripted([order('inProgress'), status(404, { code: 'ORDER_NOT_FOUND', error: 'no such order' })]);
  await expect(client.waitForOrder(orderId, { intervalMs: 2 })).rejects.toMatchObject({ status: 404, code: 'ORDER_NOT_FOUND' });
  expect(reads()).toBe(2);
});

test('gives up after timeoutMs with the last order read, having read at every interval until then', async () => {
  // On the clock of the test, not the machine's: reads come from an in-process fetch and time only
  // moves when the test moves it, so the count of reads does not depend on how loaded the machine is.
  vi.useFakeTimers();
  try {
    let calls = 0;
    const client = createGatewayClient({
      baseUrl: 'http://gateway.test',
      retry: false,
      fetch: async () => {
        calls++;
        return Response.json(orders.inProgressPendingBtcPayment);
      },
    });
    const outcome = client.waitForOrder('id', { intervalMs: 20, timeoutMs: 100 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(99);
    expect(calls).toBe(5); // at 0, 20, 40, 60 and 80 ms; the wait goes on
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(GatewayTimeoutError);
    expect((error as GatewayTimeoutError).lastOrder).toEqual(orders.inProgressPendingBtcPayment);
    expect(calls).toBe(5); // the deadline came before the read due at 100 ms
  } finally {
    vi.useRealTimers();
  }
});

test('gives up at timeoutMs while a read is still waiting for its answer', async () => {
  // A gateway that takes the request and never answers, and a client without a timeout of its own.
  const client = scripted([() => {}]);
  const started = Date.now();
  const error = await client.waitForOrder(orderId, { intervalMs: 5, timeoutMs: 200 }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(GatewayTimeoutError);
  expect((error as GatewayTimeoutError).lastOrder).toBeUndefined();
  expect(Date.now() - started).toBeLessThan(5000);
  expect(reads()).toBe(1);
});

test('after a 429 or 503, reads again no sooner than its Retry-After', async () => {
  vi.useFakeTimers();
  try {
    const answers = [
      () =>
        Response.json(
          { code: 'EXCEEDED_LIMIT', error: 'slow down', details: { limit: '600' } },
          { status: 429, headers: { 'Retry-After': '120' } },
        ),
      () => Response.json(orders.success),
    ];
    let calls = 0;
    const client = createGatewayClient({ baseUrl: 'http://gateway.test', retry: false, fetch: async () => answers[calls++]!() });
    const outcome = client.waitForOrder('id', { intervalMs: 1000 });
    await vi.advanceTimersByTimeAsync(119_999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(outcome).resolves.toEqual(orders.success);
    expect(calls).toBe(2);
  } finally {
    vi.useRealTimers();
  }
});

test('an outage that outlasts timeoutMs ends in a timeout, never in a state', async () => {
  const client = scripted([status(502)]);
  const error = await client.waitForOrder(orderId, { intervalMs: 5, timeoutMs: 100 }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(GatewayTimeoutError);
  expect(error).not.toBeInstanceOf(GatewayApiError);
  expect((error as GatewayTimeoutError).lastOrder).toBeUndefined();
});

test('an abort stops the wait', async () => {
  const client = scripted([order('inProgress')]);
  const controller = new AbortController();
  const seen: GatewayOrderInfoV3[] = [];
  const wait = client.waitForOrder(orderId, {
    intervalMs: 10_000,
    signal: controller.signal,
    onUpdate: (o) => {
      seen.push(o);
      controller.abort();
    },
  });
  await expect(wait).rejects.toMatchObject({ name: 'AbortError' });
  expect(seen).toHaveLength(1);
  expect(reads()).toBe(1);
});
