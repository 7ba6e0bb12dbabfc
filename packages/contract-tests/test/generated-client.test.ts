/**
 * create-order with quotes as a client generated from the public V4 document sends them (null
 * fields dropped; offramp and token-swap quotes without `signedQuoteData` and `ownerAddress`), on
 * every route the target lists, one route per source chain kind. Against a target that keeps no
 * state (the mock answers examples), the tests are skipped with that reason.
 */
import { beforeAll, describe, expect } from 'vitest';
import { testWallet } from '../src/bitcoin.js';
import { chainKind, createOrder, getQuote, listRoutes, routeKeyOf, type Quote, type RouteEntry } from '../src/flows.js';
import { throughPublicModels } from '../src/generated-client.js';
import { contractTest, gateway, has } from '../src/suite.js';

const wallet = testWallet('generated-client');
let routes: RouteEntry[] = [];

beforeAll(async () => {
  if (has('keeps state')) routes = await listRoutes(gateway);
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
