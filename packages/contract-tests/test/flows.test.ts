/**
 * The flows and rules of the description, end to end against the target. Each scenario declares
 * what it needs; against the mock, the ones that need state, rules or the simulated chain are
 * skipped with that reason.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { testWallet } from '../src/bitcoin.js';
import {
  chainKind,
  createOrder,
  findRoute,
  getOrder,
  getQuote,
  LiquidityShortage,
  listRoutes,
  quoteQuery,
  randomEvmAddress,
  randomEvmHash,
  releaseOrders,
  statusOf,
  txTypeOf,
  type OrderInfo,
  type RouteEntry,
} from '../src/flows.js';
import { contractTest, gateway, has, sandbox } from '../src/suite.js';

// A wallet of its own per run: a long-lived gateway counts one account's orders against its limits.
const wallet = testWallet(`flows ${randomUUID()}`);
let routes: RouteEntry[];

beforeAll(async () => {
  routes = await listRoutes(gateway);
});

// A long-lived gateway keeps what the suite reserved unless the suite gives it back.
afterAll(async () => {
  if (has('can settle its own orders')) await releaseOrders(sandbox);
});

/**
 * Two reads of one order, a moment apart, say the same: `estimatedTimeInSecs` counts down with the
 * clock, so reads that straddle a second differ in it by one (a run under load once did, 1799 and 1800).
 */
function expectSameOrder(read: OrderInfo, earlier: OrderInfo): void {
  const { estimatedTimeInSecs: left, ...rest } = read as OrderInfo & { estimatedTimeInSecs?: number };
  const { estimatedTimeInSecs: right, ...earlierRest } = earlier as OrderInfo & { estimatedTimeInSecs?: number };
  expect(rest).toEqual(earlierRest);
  expect(Math.abs((left ?? 0) - (right ?? 0)), `estimatedTimeInSecs ${left} and ${right}`).toBeLessThanOrEqual(1);
}

/** Moves the simulated chain forward until the order leaves inProgress (bounded). */
async function settle(id: string): Promise<OrderInfo> {
  let order = await getOrder(gateway, id);
  for (let pass = 0; pass < 12 && statusOf(order) === 'inProgress'; pass++) {
    await sandbox.advance(60);
    order = await getOrder(gateway, id);
  }
  return order;
}

describe('onramp: quote → create-order → register-tx → terminal state', () => {
  contractTest(
    'pays the order with a signed transaction and settles it; the order is found by id and by source txid, alike in V3 and V4',
    ['writes', 'keeps state', 'applies business rules', 'can advance the simulated chain'],
    async () => {
      const route = findRoute(routes, 'onramp');
      const quote = await getQuote(gateway, route, { wallet, sender: wallet.address });
      const order = await createOrder(gateway, quote);
      expect(order.address).toEqual(expect.any(String));
      expect(order.psbt_hex, 'a quote with a sender gets a PSBT').toEqual(expect.stringMatching(/^70736274ff/));

      const payment = wallet.signPsbt(order.psbt_hex!);
      const registered = await gateway.send<unknown>({
        method: 'PATCH',
        path: '/v4/register-tx',
        body: { onramp: { order_id: order.order_id, bitcoin_tx_hex: payment.hex } },
      });
      expect(registered.status).toBe(200);
      expect(typeof registered.body === 'string' ? registered.body : (registered.body as { onramp: { txid: string } }).onramp.txid).toBe(
        payment.txid,
      );

      const byTxid = await getOrder(gateway, payment.txid);
      expect(byTxid.id).toBe(order.order_id);
      expectSameOrder(await getOrder(gateway, order.order_id, 'v3'), await getOrder(gateway, order.order_id, 'v4'));

      const settled = await settle(order.order_id);
      expect(statusOf(settled)).toBe('success');
      const { received_tokens: received } = settled.status.success as { received_tokens: Array<{ chain: string }> };
      expect(received[0]?.chain).toBe(route.dstChain);
    },
    60_000,
  );
});

describe('offramp and tokenSwap: create-order returns the transaction of the source chain', () => {
  contractTest('every non-Bitcoin source route gets tx data tagged for its chain', ['writes'], async () => {
    const sources = routes.filter((route) => route.srcChain !== 'bitcoin');
    expect(sources.length).toBeGreaterThan(0);
    const kinds = new Set<string>();
    for (const route of sources) {
      const kind = chainKind(route.srcChain, route.srcToken) as keyof typeof txTypeOf;
      kinds.add(kind);
      const quote = await getQuote(gateway, route, { wallet });
      const order = await createOrder(gateway, quote);
      expect(order.tx?.type, `${route.srcChain} → ${route.dstChain}`).toBe(txTypeOf[kind]);
    }
    expect(kinds.size, 'routes from more than one kind of chain').toBeGreaterThan(1);
  });

  contractTest(
    'an offramp is found by its source EVM hash once indexed, and settles with a pending Bitcoin payout on the way',
    ['writes', 'keeps state', 'applies business rules', 'can advance the simulated chain'],
    async () => {
      const order = await createOrder(
        gateway,
        await getQuote(gateway, findRoute(routes, 'offramp', 'evm'), { wallet, recipient: wallet.address }),
      );
      const sourceHash = randomEvmHash();
      await sandbox.sourceSent(order.order_id, sourceHash);
      const found = await getOrder(gateway, sourceHash);
      expect(found.id).toBe(order.order_id);
      expect(found.srcInfo.txHash.toLowerCase()).toBe(sourceHash);
      expectSameOrder(await getOrder(gateway, sourceHash, 'v3'), found);

      await sandbox.advance(60);
      const paying = await getOrder(gateway, order.order_id);
      if (statusOf(paying) === 'inProgress') {
        const { pending_btc_payment: pending } = paying.status.inProgress as { pending_btc_payment: { txid: string } | null };
        expect(pending?.txid).toMatch(/^[0-9a-f]{64}$/);
      }
      expect(statusOf(await settle(order.order_id))).toBe('success');
    },
    60_000,
  );

  contractTest(
    'a forced failure and a forced refund are reported as terminal states',
    ['writes', 'keeps state', 'can settle its own orders'],
    async () => {
      for (const outcome of ['failed', 'refunded'] as const) {
        const order = await createOrder(gateway, await getQuote(gateway, findRoute(routes, 'tokenSwap'), { wallet }));
        await sandbox.forceOutcome(order.order_id, outcome);
        const info = await getOrder(gateway, order.order_id);
        expect(statusOf(info)).toBe(outcome);
        if (outcome === 'refunded')
          expect((info.status.refunded as { refunded_tokens: unknown[] }).refunded_tokens.length).toBeGreaterThan(0);
      }
    },
  );
});

describe('slippage', () => {
  contractTest(
    'is the route default when omitted, and the given value when explicit, on every route',
    ['applies business rules'],
    async () => {
      for (const key of ['onramp', 'offramp', 'tokenSwap'] as const) {
        const route = findRoute(routes, key);
        const defaulted = (await getQuote(gateway, route, { wallet }))[key]!.slippage;
        expect(String(defaulted)).toMatch(/^[0-9]+$/);
        const explicit = String(defaulted) === '150' ? '200' : '150';
        const honoured = (await getQuote(gateway, route, { wallet, slippage: explicit }))[key]!.slippage;
        expect(String(honoured), key).toBe(explicit);
      }
    },
  );
});

describe('affiliates', () => {
  const two = `${randomEvmAddress()}:25,${randomEvmAddress()}:30`;

  contractTest('two affiliates on a tokenSwap are refused with TOO_MANY_AFFILIATES', ['applies business rules'], async () => {
    const answer = await gateway.send<{ code: string }>({
      path: '/v4/get-quote',
      query: quoteQuery(findRoute(routes, 'tokenSwap', 'evm'), { wallet, affiliates: two }),
    });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('TOO_MANY_AFFILIATES');
  });

  contractTest('several affiliates are accepted on onramp and offramp, each resolved', ['applies business rules'], async () => {
    for (const key of ['onramp', 'offramp'] as const) {
      const quote = await getQuote(gateway, findRoute(routes, key, key === 'offramp' ? 'evm' : undefined), { wallet, affiliates: two });
      const affiliates = quote[key]!.affiliates as Array<{ address: string }>;
      expect(
        affiliates.map(({ address }) => address.toLowerCase()),
        key,
      ).toEqual(two.split(',').map((pair) => pair.split(':')[0]!.toLowerCase()));
    }
  });
});

describe('refund address', () => {
  contractTest(
    'a quote requested without one is refused by create-order with MISSING_REFUND_ADDRESS',
    ['writes', 'applies business rules'],
    async () => {
      for (const key of ['onramp', 'offramp', 'tokenSwap'] as const) {
        const quote = await getQuote(gateway, findRoute(routes, key), { wallet, withoutRefundAddress: true });
        const answer = await gateway.send<{ code: string }>({ method: 'POST', path: '/v4/create-order', body: quote });
        expect(answer.status, key).toBe(400);
        expect(answer.body.code, key).toBe('MISSING_REFUND_ADDRESS');
      }
    },
  );
});

describe('register-tx', () => {
  contractTest(
    'refuses a PSBT and a bare txid, then accepts the signed transaction',
    ['writes', 'keeps state', 'applies business rules'],
    async () => {
      const order = await createOrder(gateway, await getQuote(gateway, findRoute(routes, 'onramp'), { wallet, sender: wallet.address }));
      const payment = wallet.signPsbt(order.psbt_hex!);
      const register = (onramp: Record<string, string>) =>
        gateway.send<{ error: string }>({
          method: 'PATCH',
          path: '/v4/register-tx',
          body: { onramp: { order_id: order.order_id, ...onramp } },
        });

      for (const [what, onramp] of [
        ['the PSBT', { bitcoin_tx_hex: order.psbt_hex! }],
        ['a bare txid as bitcoin_tx_hex', { bitcoin_tx_hex: payment.txid }],
        ['a bare bitcoin_txid', { bitcoin_txid: payment.txid }],
      ] as const) {
        const refused = await register(onramp);
        expect(refused.status, what).toBe(400);
        expect(refused.body.error, what).toEqual(expect.any(String));
      }
      expect(statusOf(await getOrder(gateway, order.order_id))).toBe('inProgress');
      expect((await register({ bitcoin_tx_hex: payment.hex })).status).toBe(200);
    },
  );
});

describe('get-orders', () => {
  // A fresh recipient: the gateway may hold any number of other orders, from earlier runs and other users.
  const recipient = randomEvmAddress();
  const created: string[] = [];
  let shortage: LiquidityShortage | undefined;

  beforeAll(async () => {
    if (!has('writes') || !has('keeps state')) return;
    const route = findRoute(routes, 'onramp');
    try {
      for (let index = 0; index < 3; index++)
        created.push((await createOrder(gateway, await getQuote(gateway, route, { wallet, recipient }))).order_id);
    } catch (error) {
      if (!(error instanceof LiquidityShortage)) throw error;
      shortage = error;
    }
  });

  for (const version of ['v4', 'v3'] as const) {
    contractTest(`${version}: pages with nextCursor until exhausted, honouring limit`, ['writes', 'keeps state'], async () => {
      if (shortage) throw shortage;
      for (const limit of [1, 2]) {
        const seen: string[] = [];
        let cursor: string | undefined;
        for (let page = 0; page < 10; page++) {
          const answer = await gateway.send<{ orders: Array<{ id: string }>; nextCursor?: string | null }>({
            path: `/${version}/get-orders/${recipient}`,
            query: { limit, cursor },
          });
          expect(answer.status).toBe(200);
          expect(answer.body.orders.length).toBeLessThanOrEqual(limit);
          seen.push(...answer.body.orders.map(({ id }) => id));
          cursor = answer.body.nextCursor ?? undefined;
          if (!cursor) break;
        }
        expect(cursor, 'the pages end').toBeUndefined();
        expect(new Set(seen).size, 'no order twice').toBe(seen.length);
        expect([...seen].sort()).toEqual([...created].sort());
      }
    });

    contractTest(
      `${version}: a cursor it did not issue is refused with INVALID_CURSOR`,
      ['keeps state', 'applies business rules'],
      async () => {
        const answer = await gateway.send<{ code: string }>({
          path: `/${version}/get-orders/${randomEvmAddress()}`,
          query: { cursor: 'not-a-cursor-of-this-service' },
        });
        expect(answer.status).toBe(400);
        expect(answer.body.code).toBe('INVALID_CURSOR');
      },
    );
  }
});

describe('V3 create-order', () => {
  contractTest('requires ownerAddress on an offramp, and creates the order with it', ['writes'], async () => {
    const route = findRoute(routes, 'offramp', 'evm');
    const { offramp } = await getQuote(gateway, route, { wallet, recipient: wallet.address });
    const { ownerAddress: _owner, ...withoutOwner } = offramp!;
    const refused = await gateway.send<{ code: string }>({ method: 'POST', path: '/v3/create-order', body: { offramp: withoutOwner } });
    expect(refused.status).toBe(400);
    // The description's code for it; a target that only knows the schemas says INVALID_REQUEST.
    expect(refused.body.code).toBe(has('applies business rules') ? 'MISSING_OWNER_ADDRESS' : 'INVALID_REQUEST');

    const order = await createOrder(
      gateway,
      { offramp: { ...withoutOwner, ownerAddress: withoutOwner.refundAddress ?? randomEvmAddress() } },
      'v3',
    );
    expect(order.tx?.type).toBe('evm');
  });
});

describe('get-order', () => {
  contractTest('answers an id it does not know with 404 ORDER_NOT_FOUND, in V4 and V3', ['keeps state'], async () => {
    for (const version of ['v4', 'v3']) {
      const answer = await gateway.send<{ code: string }>({ path: `/${version}/get-order/${randomEvmHash()}` });
      expect(answer.status).toBe(404);
      expect(answer.body.code).toBe('ORDER_NOT_FOUND');
    }
  });
});
