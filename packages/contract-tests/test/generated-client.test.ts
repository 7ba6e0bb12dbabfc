/**
 * create-order with quotes as a client generated from the public V4 document sends them (null
 * fields dropped; offramp and token-swap quotes without `signedQuoteData` and `ownerAddress`), on
 * every route the target lists, one route per source chain kind. Against a target that keeps no
 * state (the mock answers examples), the tests are skipped with that reason.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { testWallet } from '../src/bitcoin.js';
import { chainKind, createOrder, getQuote, listRoutes, releaseOrders, routeKeyOf, type Quote, type RouteEntry } from '../src/flows.js';
import { throughPublicModels } from '../src/generated-client.js';
import { contractTest, gateway, has, sandbox } from '../src/suite.js';

// A wallet of its own per run: a long-lived gateway counts one account's orders against its limits.
const wallet = testWallet(`generated-client ${randomUUID()}`);
let routes: RouteEntry[] = [];

beforeAll(async () => {
  if (has('keeps state')) routes = await listRoutes(gateway);
});

// A long-lived gateway keeps what the suite reserved unless the suite gives it back.
afterAll(async () => {
  if (has('can settle its own orders')) await releaseOrders(sandbox);
});

/** One route of each kind and source chain kind: onramp, offramps and token swaps from EVM, Tron, Solana. */
const sampleRoutes = () => [
  ...new Map(routes.map((route) => [`${routeKeyOf(route)}:${chainKind(route.srcChain, route.srcToken)}`, route])).values(),
];

describe('a client generated from the public V4 document', () => {
  contractTest('creates an order on every route with the quote passed through its models', ['writes', 'keeps state'], async () => {
    const sampled = sampleRoutes();
    expect(new Set(sampled.map(routeKeyOf))).toEqual(new Set(['onramp', 'offramp', 'tokenSwap']));
    for (const route of sampled) {
      const sent = throughPublicModels(await getQuote(gateway, route, { wallet }));
      const order = await createOrder(gateway, sent);
      expect(order.order_id, `${route.srcChain} → ${route.dstChain}`).toEqual(expect.any(String));
    }
  });

  contractTest(
    'repeats a swap: the same quote values from a fresh quote make a new order each time',
    ['writes', 'keeps state', 'applies business rules'],
    async () => {
      for (const route of sampleRoutes().filter((candidate) => routeKeyOf(candidate) !== 'onramp')) {
        const first = await createOrder(gateway, throughPublicModels(await getQuote(gateway, route, { wallet })));
        const again = await createOrder(gateway, throughPublicModels(await getQuote(gateway, route, { wallet })));
        expect(again.order_id, `${route.srcChain} → ${route.dstChain}`).not.toBe(first.order_id);
      }
    },
  );

  contractTest(
    'still has a quote refused when a value was changed on the way',
    ['writes', 'keeps state', 'applies business rules'],
    async () => {
      for (const route of sampleRoutes()) {
        const sent = throughPublicModels(await getQuote(gateway, route, { wallet })) as Required<Quote>;
        const key = routeKeyOf(route);
        const quote = sent[key] as { outputAmount: { amount: string } };
        const changed = {
          [key]: { ...quote, outputAmount: { ...quote.outputAmount, amount: String(BigInt(quote.outputAmount.amount) + 1n) } },
        };
        const answer = await gateway.send<{ code: string }>({ method: 'POST', path: '/v4/create-order', body: changed });
        expect(answer.status, `${route.srcChain} → ${route.dstChain}: ${JSON.stringify(answer.body)}`).toBe(400);
        expect(answer.body.code).toBe('INVALID_ORDER_ARGS');
      }
    },
  );
});
