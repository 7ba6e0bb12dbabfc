/**
 * A moving market: the suite moves the Bitcoin price through the sandbox's control (and puts it
 * back). A quote sealed before the move stays valid until it expires; an offramp quote sent back
 * without its seal (as clients generated from the public V4 document send it) is quoted again at
 * the new price and refused, naming what moved; a quote asked for after the move is accepted.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { testWallet } from '../src/bitcoin.js';
import { createOrder, findRoute, getQuote, listRoutes, releaseOrders, type RouteEntry } from '../src/flows.js';
import { throughPublicModels } from '../src/generated-client.js';
import { contractTest, gateway, has, sandbox } from '../src/suite.js';

const wallet = testWallet(`prices ${randomUUID()}`);
let routes: RouteEntry[] = [];

beforeAll(async () => {
  if (has('keeps state')) routes = await listRoutes(gateway);
});

afterAll(async () => {
  if (has('can settle its own orders')) await releaseOrders(sandbox);
});

describe('when the price moves', () => {
  contractTest(
    'a sealed quote stays valid, a quote without its seal is refused naming what moved, a new quote is accepted',
    ['writes', 'keeps state', 'applies business rules', 'can move prices'],
    async () => {
      const offrampRoute = findRoute(routes, 'offramp', 'evm');
      const onrampRoute = findRoute(routes, 'onramp');
      const sameToken = (price: { chain: string; token: string }) =>
        price.chain === offrampRoute.dstChain && price.token.toLowerCase() === offrampRoute.dstToken.toLowerCase();
      const bitcoinPrice = (await sandbox.prices()).find(sameToken);
      expect(bitcoinPrice, 'the offramp pays out a priced token').toBeDefined();
      const { chain, token, priceUsd } = bitcoinPrice!;

      const onramp = await getQuote(gateway, onrampRoute, { wallet });
      const offramp = await getQuote(gateway, offrampRoute, { wallet });
      const unsealed = throughPublicModels(await getQuote(gateway, offrampRoute, { wallet }));
      await sandbox.setPrice(chain, token, (Number(priceUsd) * 1.02).toFixed(2));
      try {
        expect((await sandbox.prices()).find(sameToken)?.priceUsd).not.toBe(priceUsd);
        await createOrder(gateway, onramp);
        await createOrder(gateway, offramp);

        const refused = await gateway.send<{ code: string; error?: string }>({ method: 'POST', path: '/v4/create-order', body: unsealed });
        expect(refused.status, JSON.stringify(refused.body)).toBe(400);
        expect(refused.body.code).toBe('INVALID_ORDER_ARGS');
        if (has('sends full error bodies')) expect(refused.body.error).toMatch(/outputAmount/);

        const fresh = throughPublicModels(await getQuote(gateway, offrampRoute, { wallet }));
        expect(fresh.offramp?.outputAmount, 'the new quote is at the new price').not.toEqual(unsealed.offramp?.outputAmount);
        await createOrder(gateway, fresh);
      } finally {
        await sandbox.setPrice(chain, token, priceUsd);
      }
    },
  );
});
