/** Narrowing helpers on the document's examples, and the Solana decoder. */
import { describe, expect, test } from 'vitest';
import type { GatewayCreateOrderV3, GatewayRegisterTxResultV4 } from '@swap-gateway/types';
import { decodeSolanaTransaction, isRoute, isSettled, registeredTxid, routeOf, stateOf } from '../src/index.js';
import { responseExamples } from './support/document.js';
import { createdOrders, orders, quotes, quotesV3 } from './support/fixtures.js';

const onlyKey = (value: object) => {
  const keys = Object.keys(value);
  expect(keys).toHaveLength(1);
  return keys[0]!;
};

describe('routeOf', () => {
  const oneKeyExamples = [
    ...Object.entries(quotes).map(([name, quote]) => [`V4 quote ${name}`, quote] as const),
    ...Object.entries(quotesV3).map(([name, quote]) => [`V3 quote ${name}`, quote] as const),
    ...Object.entries(createdOrders).map(([name, result]) => [`create-order ${name}`, result] as const),
  ];

  test.each(oneKeyExamples)('%s', (_name, example) => {
    const key = onlyKey(example);
    const { route, value } = routeOf(example);
    expect(route).toBe(key);
    expect(value).toBe((example as Record<string, unknown>)[key]);
    expect(isRoute(example, route)).toBe(true);
    for (const other of ['onramp', 'offramp', 'tokenSwap'] as const) if (other !== route) expect(isRoute(example, other)).toBe(false);
  });

  test('narrows to the inner object of the route', () => {
    const entry = routeOf(createdOrders.onramp!);
    if (entry.route !== 'onramp') throw new Error('expected an onramp');
    expect(entry.value.address).toMatch(/^bc1/);
  });

  test('refuses an object without a route key', () => {
    expect(() => routeOf({ swap: {} } as unknown as GatewayCreateOrderV3)).toThrow(
      new TypeError('expected an object with one of the keys onramp, offramp, tokenSwap; got swap'),
    );
  });
});

describe('stateOf and isSettled', () => {
  const expected: Record<string, [state: string, settled: boolean]> = {
    inProgress: ['inProgress', false],
    inProgressPendingBtcPayment: ['inProgress', false],
    success: ['success', true],
    failed: ['failed', true],
    refunded: ['refunded', true],
  };

  test('every get-order example is covered', () => expect(Object.keys(orders).sort()).toEqual(Object.keys(expected).sort()));

  test.each(Object.entries(expected))('%s', (name, [state, settled]) => {
    const order = orders[name]!;
    expect(stateOf(order).state).toBe(state);
    expect(stateOf(order.status)).toEqual(stateOf(order));
    expect(stateOf(order).value).toBe((order.status as Record<string, unknown>)[state]);
    expect(isSettled(order)).toBe(settled);
    expect(isSettled(order.status)).toBe(settled);
  });

  test('an unknown state is not settled', () => {
    expect(isSettled({ status: { cancelled: {} } } as never)).toBe(false);
  });
});

test('registeredTxid reads both register-tx answers, and no txid from a string that is none', () => {
  const answers = responseExamples('/v4/register-tx', 'patch', '200') as Record<string, GatewayRegisterTxResultV4>;
  expect(Object.keys(answers).sort()).toEqual(['plainString', 'txidObject']);
  const txid = registeredTxid(answers.txidObject!);
  expect(txid).toMatch(/^[0-9a-f]{64}$/);
  expect(registeredTxid(answers.plainString!)).toBeUndefined();
  expect(registeredTxid(txid!)).toBe(txid);
  expect(registeredTxid(`${txid}0`)).toBeUndefined();
});

describe('decodeSolanaTransaction', () => {
  const solana = createdOrders.tokenSwapSolana!;
  const entry = routeOf(solana);
  if (entry.route === 'onramp' || entry.value.tx.type !== 'solana') throw new Error('expected a Solana transaction');
  const tx = entry.value.tx;

  test('decodes the base64 of the example into its bytes', () => {
    const bytes = decodeSolanaTransaction(tx);
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(bytes).equals(Buffer.from(tx.transaction, 'base64'))).toBe(true);
    expect(bytes.length).toBeGreaterThan(0);
    expect(decodeSolanaTransaction(tx.transaction)).toEqual(bytes);
  });

  test('every byte value survives', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(decodeSolanaTransaction(Buffer.from(all).toString('base64'))).toEqual(all);
  });

  test('refuses a string that is not base64', () => {
    expect(() => decodeSolanaTransaction('not base64!')).toThrow(new TypeError('the Solana transaction is not valid base64'));
  });
});
