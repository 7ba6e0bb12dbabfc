/** iterateOrders: every order of an address, following nextCursor. */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { GatewayOrderInfoV3, GatewayOrdersPageV3 } from '@swap-gateway/types';
import { createGatewayClient } from '../src/index.js';
import { orders } from './support/fixtures.js';
import { type TestServer, sendJson, startTestServer } from './support/server.js';

const order = (id: string): GatewayOrderInfoV3 => ({ ...orders.success!, id });
let pages: Record<string, GatewayOrdersPageV3>;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer((request, response) => {
    const page = pages[request.query.get('cursor') ?? 'first'];
    if (!page) return sendJson(response, 400, { code: 'INVALID_CURSOR', error: 'unknown cursor' });
    sendJson(response, 200, page);
  });
});
afterAll(() => server.close());

async function collect(iterator: AsyncIterable<GatewayOrderInfoV3>): Promise<string[]> {
  const ids: string[] = [];
  for await (const item of iterator) ids.push(item.id);
  return ids;
}

test('follows nextCursor across pages until it is null', async () => {
  pages = {
    first: { orders: [order('a'), order('b')], nextCursor: 'c1' },
    c1: { orders: [order('c'), order('d')], nextCursor: 'c2' },
    c2: { orders: [order('e')], nextCursor: null },
  };
  const before = server.requests.length;
  const client = createGatewayClient({ baseUrl: server.url });
  expect(await collect(client.iterateOrders('bc1quser', { limit: 2 }))).toEqual(['a', 'b', 'c', 'd', 'e']);
  const sent = server.requests.slice(before);
  expect(sent.map((r) => r.pathname)).toEqual(Array(3).fill('/v4/get-orders/bc1quser'));
  expect(sent.map((r) => Object.fromEntries(r.query))).toEqual([
    { limit: '2' },
    { cursor: 'c1', limit: '2' },
    { cursor: 'c2', limit: '2' },
  ]);
});

test('stops when nextCursor is absent', async () => {
  pages = { first: { orders: [order('a')], nextCursor: 'c1' }, c1: { orders: [order('b')] } };
  const client = createGatewayClient({ baseUrl: server.url });
  expect(await collect(client.iterateOrders('bc1quser'))).toEqual(['a', 'b']);
});

test('an empty first page yields nothing', async () => {
  pages = { first: { orders: [], nextCursor: null } };
  const client = createGatewayClient({ baseUrl: server.url });
  expect(await collect(client.iterateOrders('bc1quser'))).toEqual([]);
});

test('fetches a page only when the previous one is consumed', async () => {
  pages = { first: { orders: [order('a'), order('b')], nextCursor: 'c1' }, c1: { orders: [order('c')], nextCursor: null } };
  const before = server.requests.length;
  const client = createGatewayClient({ baseUrl: server.url });
  for await (const item of client.iterateOrders('bc1quser')) {
    if (item.id === 'b') break;
  }
  expect(server.requests.length - before).toBe(1);
});

test('an abort stops the iteration', async () => {
  pages = { first: { orders: [order('a')], nextCursor: 'c1' }, c1: { orders: [order('b')], nextCursor: null } };
  const controller = new AbortController();
  const client = createGatewayClient({ baseUrl: server.url });
  const seen: string[] = [];
  const iteration = (async () => {
    for await (const item of client.iterateOrders('bc1quser', { signal: controller.signal })) {
      seen.push(item.id);
      controller.abort();
    }
  })();
  await expect(iteration).rejects.toMatchObject({ name: 'AbortError' });
  expect(seen).toEqual(['a']);
});

test('a cursor that comes back is an error, not an endless loop', async () => {
  pages = { first: { orders: [order('a')], nextCursor: 'c1' }, c1: { orders: [order('b')], nextCursor: 'c1' } };
  const client = createGatewayClient({ baseUrl: server.url });
  await expect(collect(client.iterateOrders('bc1quser'))).rejects.toThrow('get-orders repeated the cursor c1');
});

test('an invalid cursor answer is thrown', async () => {
  pages = { first: { orders: [order('a')], nextCursor: 'gone' } };
  const client = createGatewayClient({ baseUrl: server.url });
  await expect(collect(client.iterateOrders('bc1quser'))).rejects.toMatchObject({ status: 400, code: 'INVALID_CURSOR' });
});
