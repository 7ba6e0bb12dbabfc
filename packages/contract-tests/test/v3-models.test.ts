/**
 * `/v3/create-order` with quotes as a V3 integration sends them: every route the target lists,
 * quoted as such an integration asks (no refund address on an onramp, a sender on a token swap:
 * V3 had no refundAddress) and passed through the described V3 models (src/v3-models.ts).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { testWallet } from '../src/bitcoin.js';
import { addressOn, chainKind, createOrder, getQuote, listRoutes, releaseOrders, routeKeyOf, type RouteEntry } from '../src/flows.js';
import { throughV3Models } from '../src/v3-models.js';
import { contractTest, gateway, has, sandbox } from '../src/suite.js';

// A wallet of its own per run: a long-lived gateway counts one account's orders against its limits.
const wallet = testWallet(`v3-models ${randomUUID()}`);
let routes: RouteEntry[] = [];

beforeAll(async () => {
  if (has('keeps state')) routes = await listRoutes(gateway);
});

afterAll(async () => {
  if (has('can settle its own orders')) await releaseOrders(sandbox);
});

describe('a V3 integration', () => {
  contractTest(
    'creates an order on every route with the quote shaped as the described V3 models have it',
    ['writes', 'keeps state'],
    async () => {
      expect(new Set(routes.map(routeKeyOf))).toEqual(new Set(['onramp', 'offramp', 'tokenSwap']));
      for (const route of routes) {
        const key = routeKeyOf(route);
        const quote = await getQuote(gateway, route, {
          wallet,
          withoutRefundAddress: key === 'onramp',
          sender: key === 'tokenSwap' ? addressOn(chainKind(route.srcChain, route.srcToken), wallet) : undefined,
        });
        const sent = throughV3Models(quote);
        const inner = sent[key]!;
        expect(inner.signedQuoteData === undefined, `${key} keeps signedQuoteData only on an onramp`).toBe(key !== 'onramp');
        expect('refundAddress' in inner, `${key} has no refundAddress in V3`).toBe(false);
        if (key === 'offramp') expect(inner.ownerAddress).toEqual(expect.any(String));
        const order = await createOrder(gateway, sent, 'v3');
        expect(order.order_id, `${route.srcChain} → ${route.dstChain}`).toEqual(expect.any(String));
      }
    },
  );
});
