import { describe, expectTypeOf, test } from 'vitest';
import type {
  GatewayRoutesV4,
  GatewayCreateOrderV3,
  GatewayCreateOrderV3Of,
  GatewayErrorCodeV3,
  GatewayErrorCodeV4,
  GatewayErrorDetails,
  GatewayErrorDetailsByCode,
  GatewayErrorDetailsOf,
  GatewayErrorV3,
  GatewayErrorV4,
  GatewayInProgressV3,
  GatewayMaxSpendableV4,
  GatewayOrderInfoV3,
  GatewayOrderState,
  GatewayOrderStatusV3,
  GatewayOrderStatusV3Of,
  GatewayOrdersPageV3,
  GatewayOrdersQueryV4,
  GatewayQuoteParamsV4,
  GatewayQuoteV3,
  GatewayQuoteV4,
  GatewayQuoteV4Of,
  GatewayRegisterTxErrorV4,
  GatewayRegisterTxResultV4,
  GatewayRegisterTxV4,
  GatewayRoute,
  GatewayRouteV2,
  GatewaySolanaTxData,
  GatewayTokenAmountV2,
  GatewayTxData,
  GatewayTxType,
  paths,
} from '../src/index.js';

/** The keys of one union member, as a union: exactly one key for every one-key object. */
type MemberKeys<U> = U extends unknown ? [keyof U] : never;

describe('one-key unions', () => {
  test('every quote member has exactly one key, its route', () => {
    expectTypeOf<MemberKeys<GatewayQuoteV4>>().toEqualTypeOf<['onramp'] | ['offramp'] | ['tokenSwap']>();
    expectTypeOf<MemberKeys<GatewayQuoteV3>>().toEqualTypeOf<['onramp'] | ['offramp'] | ['tokenSwap']>();
    expectTypeOf<MemberKeys<GatewayCreateOrderV3>>().toEqualTypeOf<['onramp'] | ['offramp'] | ['tokenSwap']>();
    expectTypeOf<GatewayRoute>().toEqualTypeOf<'onramp' | 'offramp' | 'tokenSwap'>();
  });

  test('`in` narrows a quote to its route', () => {
    const quote = {} as GatewayQuoteV4;
    if ('onramp' in quote) {
      expectTypeOf(quote.onramp.signedQuoteData).toEqualTypeOf<string>();
      expectTypeOf(quote.onramp.slippage).toEqualTypeOf<string>();
      expectTypeOf(quote.onramp.refundAddress).toEqualTypeOf<string | null | undefined>();
    } else if ('offramp' in quote) {
      expectTypeOf(quote.offramp.slippage).toEqualTypeOf<number>();
      expectTypeOf(quote.offramp.ownerAddress).toEqualTypeOf<string | undefined>();
    } else {
      expectTypeOf(quote).toEqualTypeOf<{ tokenSwap: GatewayQuoteV4Of<'tokenSwap'> }>();
    }
  });

  test('the V3 offramp requires ownerAddress, the V4 one does not', () => {
    type OfframpV3 = Extract<GatewayQuoteV3, { offramp: unknown }>['offramp'];
    expectTypeOf<OfframpV3['ownerAddress']>().toEqualTypeOf<string>();
    expectTypeOf<GatewayQuoteV4Of<'offramp'>['ownerAddress']>().toEqualTypeOf<string | undefined>();
  });

  test('create-order results: an onramp pays an address, the others carry a tx', () => {
    expectTypeOf<GatewayCreateOrderV3Of<'onramp'>['address']>().toEqualTypeOf<string>();
    expectTypeOf<GatewayCreateOrderV3Of<'onramp'>['psbt_hex']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<GatewayCreateOrderV3Of<'offramp'>['tx']>().toEqualTypeOf<GatewayTxData>();
    expectTypeOf<GatewayCreateOrderV3Of<'tokenSwap'>['tx']>().toEqualTypeOf<GatewayTxData>();
  });

  test('an order status has exactly one state key', () => {
    expectTypeOf<MemberKeys<GatewayOrderStatusV3>>().toEqualTypeOf<['inProgress'] | ['success'] | ['failed'] | ['refunded']>();
    expectTypeOf<GatewayOrderState>().toEqualTypeOf<'inProgress' | 'success' | 'failed' | 'refunded'>();
    // The public gateway's open `failed` object (inferred): an optional refund_tx, other keys allowed.
    expectTypeOf<GatewayOrderStatusV3Of<'failed'>['refund_tx']>().toEqualTypeOf<GatewayInProgressV3['refund_tx'] | undefined>();
    expectTypeOf<{ reason: 'expired' }>().toMatchTypeOf<GatewayOrderStatusV3Of<'failed'>>();
    expectTypeOf<GatewayOrderStatusV3Of<'success'>['received_tokens'][number]['txHash']>().toEqualTypeOf<string>();
    expectTypeOf<GatewayOrderInfoV3['status']>().toEqualTypeOf<GatewayOrderStatusV3>();
  });
});

describe('transaction data', () => {
  test('is tagged by type, with one member per chain family', () => {
    expectTypeOf<GatewayTxType>().toEqualTypeOf<'evm' | 'tron' | 'solana'>();
    expectTypeOf<Extract<GatewayTxData, { type: 'tron' }>['feeLimit']>().toEqualTypeOf<string>();
    expectTypeOf<Extract<GatewayTxData, { type: 'solana' }>>().toEqualTypeOf<GatewaySolanaTxData>();
    expectTypeOf<GatewaySolanaTxData['chainId']>().toEqualTypeOf<number>();
    expectTypeOf<Extract<GatewayTxData, { type: 'evm' }>>().not.toHaveProperty('feeLimit');
  });
});

describe('error codes and bodies', () => {
  test('MISSING_REFUND_ADDRESS is a V4 code only, MISSING_OWNER_ADDRESS is in both', () => {
    expectTypeOf<'MISSING_REFUND_ADDRESS'>().toExtend<GatewayErrorCodeV4>();
    expectTypeOf<Extract<GatewayErrorCodeV3, 'MISSING_REFUND_ADDRESS'>>().toBeNever();
    expectTypeOf<'MISSING_OWNER_ADDRESS'>().toExtend<GatewayErrorCodeV3>();
    expectTypeOf<Exclude<GatewayErrorCodeV4, GatewayErrorCodeV3>>().toEqualTypeOf<'MISSING_REFUND_ADDRESS'>();
    expectTypeOf<'NOT_A_CODE'>().not.toExtend<GatewayErrorCodeV4>();
  });

  test('V3 errors require code and error; V4 errors require only code; register-tx requires error', () => {
    expectTypeOf<GatewayErrorV3['code']>().toEqualTypeOf<GatewayErrorCodeV3>();
    expectTypeOf<GatewayErrorV3['error']>().toEqualTypeOf<string>();
    expectTypeOf<GatewayErrorV4['code']>().toEqualTypeOf<GatewayErrorCodeV4>();
    expectTypeOf<GatewayErrorV4['error']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<GatewayRegisterTxErrorV4['error']>().toEqualTypeOf<string>();
    expectTypeOf<GatewayRegisterTxErrorV4['code']>().toEqualTypeOf<GatewayErrorCodeV4 | undefined>();
  });

  test('details are the flat set of shapes or null', () => {
    expectTypeOf<null>().toExtend<GatewayErrorDetails>();
    expectTypeOf<{ addresses: string[] }>().toExtend<GatewayErrorDetails>();
    expectTypeOf<{ expected: string; actual: string }>().toExtend<GatewayErrorDetails>();
    expectTypeOf<{ limit: string; token: string; chain_id: string }>().toExtend<GatewayErrorDetails>();
    expectTypeOf<{ addresses: number[] }>().not.toExtend<GatewayErrorDetails>();
    expectTypeOf<GatewayErrorV4['details']>().toEqualTypeOf<GatewayErrorDetails | undefined>();
  });

  test('a code the document ties to a shape has that shape; any other code any shape or null', () => {
    expectTypeOf<keyof GatewayErrorDetailsByCode>().toEqualTypeOf<
      | 'INSUFFICIENT_AMOUNT'
      | 'INSUFFICIENT_PAYMENT_AMOUNT'
      | 'QUOTE_AMOUNT_TOO_LOW'
      | 'INSUFFICIENT_SWAP_AMOUNT'
      | 'UNABLE_TO_COVER_FEES'
      | 'SIMULATION_FAILED'
      | 'GAS_ESTIMATE_FAILED'
      | 'NO_ROUTE'
      | 'INSUFFICIENT_SOLVER_BALANCE'
      | 'EXCEEDED_LIMIT'
    >();
    expectTypeOf<GatewayErrorDetailsOf<'INSUFFICIENT_AMOUNT'>>().toEqualTypeOf<{ expected: string; actual: string }>();
    expectTypeOf<GatewayErrorDetailsOf<'INSUFFICIENT_PAYMENT_AMOUNT'>>().toEqualTypeOf<{ expected: string; actual: string }>();
    expectTypeOf<GatewayErrorDetailsOf<'QUOTE_AMOUNT_TOO_LOW'>>().toEqualTypeOf<{ minimum: string; actual: string }>();
    expectTypeOf<GatewayErrorDetailsOf<'INSUFFICIENT_SWAP_AMOUNT'>>().toEqualTypeOf<{ required: string; available: string }>();
    expectTypeOf<GatewayErrorDetailsOf<'UNABLE_TO_COVER_FEES'>>().toEqualTypeOf<{ total_fees: string; available_amount: string }>();
    expectTypeOf<GatewayErrorDetailsOf<'SIMULATION_FAILED'>>().toEqualTypeOf<{ tenderly_url?: string | null }>();
    expectTypeOf<GatewayErrorDetailsOf<'GAS_ESTIMATE_FAILED'>>().toEqualTypeOf<{ tenderly_url?: string | null }>();
    expectTypeOf<GatewayErrorDetailsOf<'NO_ROUTE'>>().toEqualTypeOf<{
      src_chain: string;
      src_token: string;
      dst_chain: string;
      dst_token: string;
    }>();
    expectTypeOf<GatewayErrorDetailsOf<'INSUFFICIENT_SOLVER_BALANCE'>>().toEqualTypeOf<{
      limit: string;
      token: string;
      chain_id: string;
    }>();
    expectTypeOf<GatewayErrorDetailsOf<'EXCEEDED_LIMIT'>>().toEqualTypeOf<{ limit: string }>();
    // Another shape, or null, is not a tied code's details.
    expectTypeOf<{ minimum: string; actual: string }>().not.toExtend<GatewayErrorDetailsOf<'INSUFFICIENT_AMOUNT'>>();
    expectTypeOf<{ required: string; available: string }>().not.toExtend<GatewayErrorDetailsOf<'INSUFFICIENT_SOLVER_BALANCE'>>();
    expectTypeOf<null>().not.toExtend<GatewayErrorDetailsOf<'EXCEEDED_LIMIT'>>();
    // No source fixes the shape of the other codes; over every code the details are the whole set.
    expectTypeOf<GatewayErrorDetailsOf<'INVALID_REQUEST'>>().toEqualTypeOf<GatewayErrorDetails>();
    expectTypeOf<GatewayErrorDetailsOf<'MISSING_REFUND_ADDRESS'>>().toEqualTypeOf<GatewayErrorDetails>();
    expectTypeOf<GatewayErrorDetailsOf<GatewayErrorCodeV4>>().toEqualTypeOf<GatewayErrorDetails>();
    expectTypeOf<GatewayErrorDetailsOf<'INSUFFICIENT_AMOUNT' | 'EXCEEDED_LIMIT'>>().toEqualTypeOf<
      { expected: string; actual: string } | { limit: string }
    >();
  });
});

describe('operations', () => {
  test('get-quote V4 has refundAddress and optional slippage, and no ownerAddress', () => {
    expectTypeOf<GatewayQuoteParamsV4>().toHaveProperty('refundAddress');
    expectTypeOf<GatewayQuoteParamsV4['slippage']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<GatewayQuoteParamsV4>().not.toHaveProperty('ownerAddress');
    expectTypeOf<GatewayQuoteParamsV4['amount']>().toEqualTypeOf<string>();
  });

  test('create-order V4 takes a V4 quote and answers a create-order result with 201', () => {
    type CreateOrder = paths['/v4/create-order']['post'];
    expectTypeOf<CreateOrder['requestBody']>().toEqualTypeOf<{ content: { 'application/json': GatewayQuoteV4 } }>();
    expectTypeOf<CreateOrder['responses'][201]['content']['application/json']>().toEqualTypeOf<GatewayCreateOrderV3>();
    expectTypeOf<CreateOrder['responses'][400]['content']['application/json']>().toEqualTypeOf<GatewayErrorV4>();
    type CreateOrderV3 = paths['/v3/create-order']['post'];
    expectTypeOf<CreateOrderV3['responses'][400]['content']['application/json']>().toEqualTypeOf<GatewayErrorV3>();
  });

  test('register-tx takes only an onramp body with bitcoin_tx_hex', () => {
    type RegisterTx = paths['/v4/register-tx']['patch'];
    expectTypeOf<RegisterTx['requestBody']>().toEqualTypeOf<{ content: { 'application/json': GatewayRegisterTxV4 } }>();
    expectTypeOf<keyof GatewayRegisterTxV4>().toEqualTypeOf<'onramp'>();
    expectTypeOf<keyof GatewayRegisterTxV4['onramp']>().toEqualTypeOf<'order_id' | 'bitcoin_tx_hex'>();
    expectTypeOf<RegisterTx['responses'][200]['content']['application/json']>().toEqualTypeOf<GatewayRegisterTxResultV4>();
    expectTypeOf<string>().toExtend<GatewayRegisterTxResultV4>();
  });

  test('get-orders pages carry orders and an optional nullable cursor', () => {
    expectTypeOf<GatewayOrdersPageV3['orders']>().toEqualTypeOf<GatewayOrderInfoV3[]>();
    expectTypeOf<GatewayOrdersPageV3['nextCursor']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<GatewayOrdersQueryV4['limit']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<
      paths['/v3/get-orders/{user_address}']['get']['responses'][200]['content']['application/json']
    >().toEqualTypeOf<GatewayOrdersPageV3>();
  });

  test('the V4 API has seven paths and V3 three', () => {
    expectTypeOf<Extract<keyof paths, `/v4/${string}`>>().toEqualTypeOf<
      | '/v4/get-routes'
      | '/v4/get-quote'
      | '/v4/create-order'
      | '/v4/register-tx'
      | '/v4/get-order/{id}'
      | '/v4/get-orders/{user_address}'
      | '/v4/get-max-spendable/{address}'
    >();
    expectTypeOf<Extract<keyof paths, `/v3/${string}`>>().toEqualTypeOf<
      '/v3/create-order' | '/v3/get-order/{id}' | '/v3/get-orders/{user_address}'
    >();
  });

  test('amounts and route entries keep their wire names', () => {
    expectTypeOf<keyof GatewayTokenAmountV2>().toEqualTypeOf<'address' | 'amount' | 'chain' | 'usd'>();
    expectTypeOf<GatewayTokenAmountV2['usd']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<keyof GatewayRouteV2>().toEqualTypeOf<'srcChain' | 'srcToken' | 'dstChain' | 'dstToken'>();
    expectTypeOf<GatewayRoutesV4>().toEqualTypeOf<GatewayRouteV2[]>();
  });

  test("get-max-spendable answers the public gateway's GatewayMaxSpendable (inferred)", () => {
    expectTypeOf<GatewayMaxSpendableV4['userAddress']>().toEqualTypeOf<string>();
    expectTypeOf<GatewayMaxSpendableV4['amount']>().toEqualTypeOf<GatewayTokenAmountV2>();
  });
});
