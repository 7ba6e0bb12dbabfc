/** The happy paths of the README, type-checked against the client (the wallets are stand-ins). */
import { expectTypeOf, test } from 'vitest';
import type { GatewayOrderInfoV3 } from '@swap-gateway/types';
import { createGatewayApi } from '../src/api.js';
import {
  createGatewayClient,
  decodeSolanaTransaction,
  isGatewayApiError,
  isGatewayNetworkError,
  isGatewayTimeoutError,
  isRoute,
  routeOf,
} from '../src/index.js';

declare const evmAddress: string, btcAddress: string, solanaAddress: string;
declare const btcWallet: { payAndFinalize(address: string, opReturn?: string | null): Promise<string> };
declare const walletClient: { sendTransaction(tx: { to: `0x${string}`; data: `0x${string}`; value: bigint }): Promise<string> };
declare const VersionedTransaction: { deserialize(bytes: Uint8Array): { sign(signers: unknown[]): void; serialize(): Uint8Array } };
declare const connection: { sendRawTransaction(bytes: Uint8Array): Promise<string> };
declare const keypair: unknown;
declare const quote: import('@swap-gateway/types').GatewayQuoteV4;
declare function quoteAgainWithRefundAddress(): void;
declare function askAtLeast(amount: string | undefined): void;

const gateway = createGatewayClient({ apiKey: process.env.GATEWAY_API_KEY || undefined });

test('onramp', async () => {
  const quote = await gateway.getQuote({
    srcChain: 'bitcoin',
    dstChain: 'bob',
    srcToken: '0x0000000000000000000000000000000000000000',
    dstToken: '0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3',
    amount: '1000000',
    recipient: evmAddress,
    refundAddress: btcAddress,
  });
  const order = await gateway.createOrder(quote);
  if (!isRoute(order, 'onramp')) throw new Error('expected an onramp');
  const txHex = await btcWallet.payAndFinalize(order.onramp.address, order.onramp.op_return_data);
  await gateway.registerTx({ onramp: { order_id: order.onramp.order_id, bitcoin_tx_hex: txHex } });
  const settled = await gateway.waitForOrder(order.onramp.order_id);
  expectTypeOf(settled).toEqualTypeOf<GatewayOrderInfoV3>();
});

test('offramp', async () => {
  const quote = await gateway.getQuote({
    srcChain: 'ethereum',
    dstChain: 'bitcoin',
    srcToken: '0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599',
    dstToken: '0x0000000000000000000000000000000000000000',
    amount: '100000',
    recipient: btcAddress,
    refundAddress: evmAddress,
  });
  const { route, value } = routeOf(await gateway.createOrder(quote));
  if (route !== 'offramp' || value.tx.type !== 'evm') throw new Error('expected an EVM offramp');
  await walletClient.sendTransaction({
    to: value.tx.to as `0x${string}`,
    data: value.tx.data as `0x${string}`,
    value: BigInt(value.tx.value),
  });
  const settled = await gateway.waitForOrder(value.order_id);
  expectTypeOf(settled).toEqualTypeOf<GatewayOrderInfoV3>();
});

test('token swap from Solana', async () => {
  const quote = await gateway.getQuote({
    srcChain: 'solana',
    dstChain: 'base',
    srcToken: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    dstToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    amount: '25000000',
    recipient: evmAddress,
    refundAddress: solanaAddress,
  });
  const order = await gateway.createOrder(quote);
  if (!isRoute(order, 'tokenSwap') || order.tokenSwap.tx.type !== 'solana') throw new Error('expected a Solana token swap');
  const tx = VersionedTransaction.deserialize(decodeSolanaTransaction(order.tokenSwap.tx));
  tx.sign([keypair]);
  await connection.sendRawTransaction(tx.serialize());
  const settled = await gateway.waitForOrder(order.tokenSwap.order_id);
  expectTypeOf(settled).toEqualTypeOf<GatewayOrderInfoV3>();
});

test('every operation with openapi-fetch', async () => {
  const id = 'an order id';
  const api = createGatewayApi({ apiKey: process.env.GATEWAY_API_KEY || undefined });
  const { data, response } = await api.GET('/v4/get-order/{id}', { params: { path: { id } } });
  expectTypeOf(data).toExtend<GatewayOrderInfoV3>();
  expectTypeOf(response).toEqualTypeOf<Response>();
});

test('errors', async () => {
  try {
    await gateway.createOrder(quote);
  } catch (error) {
    if (isGatewayApiError(error, 'MISSING_REFUND_ADDRESS')) quoteAgainWithRefundAddress();
    else if (isGatewayApiError(error, 'INSUFFICIENT_AMOUNT'))
      askAtLeast(error.details?.expected); // details: { expected, actual } | undefined
    else if (isGatewayApiError(error)) console.error(error.status, error.code, error.error, error.details, error.rawBody);
    else if (isGatewayNetworkError(error) || isGatewayTimeoutError(error))
      console.error(error.kind, error.message); // no answer
    else throw error; // e.g. your AbortSignal's reason
  }
  // What the README's comment says of the narrowed details.
  const caught: unknown = undefined;
  if (isGatewayApiError(caught, 'INSUFFICIENT_AMOUNT'))
    expectTypeOf(caught.details).toEqualTypeOf<{ expected: string; actual: string } | undefined>();
});
