/** The named layer and the helpers keep the generated types. */
import { describe, expectTypeOf, test } from 'vitest';
import type {
  GatewayCreateOrderOnrampV3,
  GatewayCreateOrderTxV3,
  GatewayCreateOrderV3,
  GatewayErrorCodeV4,
  GatewayErrorDetails,
  GatewayMaxSpendableV4,
  GatewayOrderInfoV3,
  GatewayOrderStatusV3Of,
  GatewayQuoteV4,
  GatewayQuoteV4Of,
  GatewayRegisterTxResultV4,
  GatewayRegisterTxV4,
  paths,
} from '@swap-gateway/types';
import type { HttpMethod } from 'openapi-typescript-helpers';
import { createGatewayApi } from '../src/api.js';
import {
  createGatewayClient,
  executeQuote,
  isGatewayApiError,
  routeOf,
  stateOf,
  type GatewayApiError,
  type ExecuteQuoteOptions,
  type OrderExecutionError,
  type PaymentRequest,
} from '../src/index.js';
import type { Connection } from '../src/connection.js';
import { createRequest, type OperationError, type OperationInput, type OperationResult } from '../src/request.js';

type Method = HttpMethod & keyof paths[keyof paths];

const client = createGatewayClient();

describe('named layer', () => {
  test('the flow is typed end to end', () => {
    expectTypeOf(client.getQuote).returns.resolves.toEqualTypeOf<GatewayQuoteV4>();
    expectTypeOf(client.createOrder).parameter(0).toEqualTypeOf<GatewayQuoteV4>();
    expectTypeOf(client.createOrder).returns.resolves.toEqualTypeOf<GatewayCreateOrderV3>();
    expectTypeOf(client.registerTx).parameter(0).toEqualTypeOf<GatewayRegisterTxV4>();
    expectTypeOf(client.getOrder).returns.resolves.toEqualTypeOf<GatewayOrderInfoV3>();
    expectTypeOf(client.waitForOrder).returns.resolves.toEqualTypeOf<GatewayOrderInfoV3>();
    expectTypeOf(client.iterateOrders('a')).toEqualTypeOf<AsyncGenerator<GatewayOrderInfoV3, void, undefined>>();
  });

  test("getMaxSpendable answers the public gateway's GatewayMaxSpendable, typed", () => {
    expectTypeOf(client.getMaxSpendable).parameter(0).toEqualTypeOf<string>();
    expectTypeOf(client.getMaxSpendable).returns.resolves.toEqualTypeOf<GatewayMaxSpendableV4>();
    expectTypeOf<GatewayMaxSpendableV4['userAddress']>().toEqualTypeOf<string>();
    expectTypeOf<GatewayMaxSpendableV4['amount']['amount']>().toEqualTypeOf<string>();
  });

  test('get-quote requires its required parameters and refuses ownerAddress', () => {
    // @ts-expect-error amount is required
    void client.getQuote({ srcChain: 'bitcoin', dstChain: 'bob', recipient: 'r', srcToken: 't', dstToken: 't' });
    void client.getQuote({
      srcChain: 'bitcoin',
      dstChain: 'bob',
      recipient: 'r',
      srcToken: 't',
      dstToken: 't',
      amount: '1',
      // @ts-expect-error ownerAddress is not a V4 parameter
      ownerAddress: 'x',
    });
  });

  test('register-tx takes only an onramp body', () => {
    // @ts-expect-error no offramp registration exists
    void client.registerTx({ offramp: { order_id: 'o', bitcoin_tx_hex: '00' } });
    // @ts-expect-error a txid is not accepted
    void client.registerTx({ onramp: { order_id: 'o', bitcoin_txid: 'ab' } });
  });
});

describe('request layer', () => {
  test("every operation's documented error body is the structured error that GatewayApiError reads", () => {
    type ErrorBodies = OperationError<paths[keyof paths][Method]>;
    type ReadByGatewayApiError = { code?: GatewayErrorCodeV4; error?: string; details?: GatewayErrorDetails };
    // (toExtend compares a union member by member and trips over the optional fields; plain assignability does not.)
    expectTypeOf<ErrorBodies>().not.toBeNever();
    expectTypeOf<[ErrorBodies] extends [ReadByGatewayApiError] ? true : false>().toEqualTypeOf<true>();
  });

  // What src/request.ts serializes: path and query values that are strings or numbers, a JSON body
  // that is required or absent, a JSON success body, and no header or cookie parameter. An operation
  // of the document outside this would be sent wrong, so it fails here.
  type Operations = Exclude<
    { [P in keyof paths]: { [M in keyof paths[P] & HttpMethod]: paths[P][M] }[keyof paths[P] & HttpMethod] }[keyof paths],
    undefined
  >;
  type Scalar = string | number;
  type Params<Op, In extends string> = Op extends { parameters: { [K in In]?: infer P } } ? P : never;
  type ValuesOf<P> = [P] extends [never] ? never : P extends undefined ? never : P[keyof P];
  type Misfit<Op> =
    | (Exclude<ValuesOf<Params<Op, 'path'>>, Scalar> extends never ? never : 'a path value that is not a string or number')
    | (Exclude<ValuesOf<Params<Op, 'query'>>, Scalar | undefined> extends never ? never : 'a query value that is not a string or number')
    | ([Params<Op, 'header'> | Params<Op, 'cookie'>] extends [never | undefined] ? never : 'a header or cookie parameter')
    | (Op extends { requestBody?: never }
        ? never
        : Op extends { requestBody: { content: { 'application/json': unknown } } }
          ? never
          : 'an optional or non-JSON body')
    | ([OperationResult<Op>] extends [never | undefined]
        ? 'no JSON success body'
        : unknown extends OperationResult<Op>
          ? 'no JSON success body'
          : never);
  type MisfitsOf<Ops> = Ops extends unknown ? (Misfit<Ops> extends never ? never : [Ops, Misfit<Ops>]) : never;

  test('every operation of the document is one the request layer sends as typed', () => {
    expectTypeOf<Operations>().not.toBeNever();
    expectTypeOf<MisfitsOf<Operations>>().toBeNever();
  });

  test('the guard catches each operation the layer would send wrong', () => {
    const op = <Extra>() =>
      ({}) as {
        parameters: { query?: never; header?: never; path?: never; cookie?: never };
        requestBody?: never;
        responses: { 200: { content: { 'application/json': string } } };
      } & Extra;
    type Fits = ReturnType<typeof op<unknown>>;
    expectTypeOf<Misfit<Fits>>().toBeNever();
    expectTypeOf<
      Misfit<Omit<Fits, 'parameters'> & { parameters: { path: { id: string[] }; query?: never; header?: never; cookie?: never } }>
    >().not.toBeNever();
    expectTypeOf<
      Misfit<Omit<Fits, 'parameters'> & { parameters: { path?: never; query?: { ids?: string[] }; header?: never; cookie?: never } }>
    >().not.toBeNever();
    expectTypeOf<
      Misfit<Omit<Fits, 'parameters'> & { parameters: { path?: never; query?: never; header: { 'x-key': string }; cookie?: never } }>
    >().not.toBeNever();
    expectTypeOf<Misfit<Omit<Fits, 'requestBody'> & { requestBody?: { content: { 'application/json': string } } }>>().not.toBeNever();
    expectTypeOf<Misfit<Omit<Fits, 'responses'> & { responses: { 204: { content?: never } } }>>().not.toBeNever();
  });

  test('createRequest refuses what the document does not allow, and types the result', async () => {
    const request = createRequest({} as Connection);
    // @ts-expect-error the path value is missing
    void request('GET', '/v4/get-order/{id}', {});
    // @ts-expect-error the path parameter is misspelled
    void request('GET', '/v4/get-order/{id}', { path: { ID: 'x' } });
    // @ts-expect-error the body is missing
    void request('POST', '/v4/create-order', {});
    // @ts-expect-error get-order has no POST
    void request('POST', '/v4/get-order/{id}', { path: { id: 'x' } });
    // @ts-expect-error not a path of the document
    void request('GET', '/v4/get-order/{ID}', { path: { id: 'x' } });
    const params = { srcChain: 'bitcoin', dstChain: 'bob', srcToken: 't', dstToken: 't', amount: '1', recipient: 'r' } as const;
    // @ts-expect-error amount is required
    void request('GET', '/v4/get-quote', { query: { srcChain: 'bitcoin', dstChain: 'bob', srcToken: 't', dstToken: 't', recipient: 'r' } });
    // @ts-expect-error not a query parameter of get-quote
    void request('GET', '/v4/get-quote', { query: { ...params, extra: 1 } });
    const order = await request('GET', '/v4/get-order/{id}', { path: { id: 'x' } });
    expectTypeOf(order).not.toBeAny();
    expectTypeOf(order).not.toBeNever();
    expectTypeOf(order).toEqualTypeOf<GatewayOrderInfoV3>();
    const quote = await request('GET', '/v4/get-quote', { query: params });
    expectTypeOf(quote).toEqualTypeOf<GatewayQuoteV4>();
  });

  test('an operation takes its parameters and body as the document types them', () => {
    expectTypeOf<OperationInput<paths['/v4/get-order/{id}']['get']>['path']>().toEqualTypeOf<{ id: string }>();
    expectTypeOf<OperationInput<paths['/v4/create-order']['post']>['body']>().toEqualTypeOf<GatewayQuoteV4>();
    expectTypeOf<OperationInput<paths['/v4/get-routes']['get']>['body']>().toEqualTypeOf<undefined>();
    expectTypeOf<OperationResult<paths['/v4/register-tx']['patch']>>().toEqualTypeOf<GatewayRegisterTxResultV4>();
  });
});

describe('@swap-gateway/client/api', () => {
  const api = createGatewayApi();

  test('is openapi-fetch typed from the paths', () => {
    // @ts-expect-error the path parameter is required
    void api.GET('/v4/get-order/{id}', {});
    // @ts-expect-error not an operation of the document
    void api.GET('/v2/get-order/{id}', { params: { path: { id: 'x' } } });
    void api.PATCH('/v4/register-tx', { body: { onramp: { order_id: 'o', bitcoin_tx_hex: '00' } } });
  });

  test('resolves to the success body, with no error branch (the transport throws)', async () => {
    const answer = await api.GET('/v4/get-order/{id}', { params: { path: { id: 'x' } } });
    // Both ways assignable: toEqualTypeOf cannot compare the open `failed` payload (an object with an
    // index signature, inside a union) structurally, though both sides are the same generated type.
    expectTypeOf(answer.data).toExtend<GatewayOrderInfoV3>();
    expectTypeOf<GatewayOrderInfoV3>().toExtend<typeof answer.data>();
    expectTypeOf(answer.response).toEqualTypeOf<Response>();
    expectTypeOf(answer).not.toHaveProperty('error');
    const created = await api.POST('/v4/create-order', { body: {} as GatewayQuoteV4 });
    expectTypeOf(created.data).toEqualTypeOf<GatewayCreateOrderV3>();
  });
});

describe('helpers narrow', () => {
  test('routeOf gives the inner object of the route', () => {
    const entry = routeOf({} as GatewayCreateOrderV3);
    if (entry.route === 'onramp') expectTypeOf(entry.value).toEqualTypeOf<GatewayCreateOrderOnrampV3>();
    else expectTypeOf(entry.value).toEqualTypeOf<GatewayCreateOrderTxV3>();
    const quote = routeOf({} as GatewayQuoteV4);
    if (quote.route === 'offramp') expectTypeOf(quote.value).toEqualTypeOf<GatewayQuoteV4Of<'offramp'>>();
  });

  test('stateOf gives the inner object of the state', () => {
    const entry = stateOf({} as GatewayOrderInfoV3);
    expectTypeOf(entry.state).toEqualTypeOf<'inProgress' | 'success' | 'failed' | 'refunded'>();
    if (entry.state === 'success') expectTypeOf(entry.value).toEqualTypeOf<GatewayOrderStatusV3Of<'success'>>();
  });

  test('isGatewayApiError narrows code to the union, or to one code', () => {
    const error: unknown = undefined;
    if (isGatewayApiError(error)) expectTypeOf(error.code).toEqualTypeOf<GatewayErrorCodeV4 | undefined>();
    if (isGatewayApiError(error, 'MISSING_REFUND_ADDRESS')) expectTypeOf(error.code).toEqualTypeOf<'MISSING_REFUND_ADDRESS'>();
    // @ts-expect-error not a code of the document
    isGatewayApiError(error, 'NOT_A_CODE');
  });

  test("narrowing on code narrows details to that code's type (the document's x-detail-shapes-by-code)", () => {
    const error: unknown = undefined;
    if (!isGatewayApiError(error)) return;
    if (error.code === 'INSUFFICIENT_AMOUNT') {
      expectTypeOf(error.details).toEqualTypeOf<{ expected: string; actual: string } | undefined>();
      if (error.details) expectTypeOf(error.details.expected).toEqualTypeOf<string>();
      // @ts-expect-error INSUFFICIENT_AMOUNT carries expected, not minimum
      void error.details?.minimum;
    }
    switch (error.code) {
      case 'QUOTE_AMOUNT_TOO_LOW':
        expectTypeOf(error.details).toEqualTypeOf<{ minimum: string; actual: string } | undefined>();
        break;
      case 'INSUFFICIENT_SOLVER_BALANCE':
        expectTypeOf(error.details).toEqualTypeOf<{ limit: string; token: string; chain_id: string } | undefined>();
        // @ts-expect-error INSUFFICIENT_SOLVER_BALANCE carries limit, token and chain_id
        void error.details?.available;
        break;
      case 'SIMULATION_FAILED':
      case 'GAS_ESTIMATE_FAILED':
        expectTypeOf(error.details).toEqualTypeOf<{ tenderly_url?: string | null } | undefined>();
        break;
      case 'INVALID_REQUEST':
        // No source fixes the shape of the other codes.
        expectTypeOf(error.details).toEqualTypeOf<GatewayErrorDetails | undefined>();
        break;
      case undefined:
        // A body without a code (register-tx's may have only error and details), or not the structured error.
        expectTypeOf(error.details).toEqualTypeOf<GatewayErrorDetails | undefined>();
        break;
    }
    // Without a narrowing, details are any shape or null, as before.
    expectTypeOf(error.details).toEqualTypeOf<GatewayErrorDetails | undefined>();
    expectTypeOf(error).toExtend<GatewayApiError>();
  });

  test('the one-code guard types details too', () => {
    const error: unknown = undefined;
    if (isGatewayApiError(error, 'EXCEEDED_LIMIT')) expectTypeOf(error.details).toEqualTypeOf<{ limit: string } | undefined>();
    if (isGatewayApiError(error, 'NO_ROUTE')) expectTypeOf(error.details?.dst_token).toEqualTypeOf<string | undefined>();
    expectTypeOf<GatewayApiError['details']>().toEqualTypeOf<GatewayErrorDetails | undefined>();
  });
});

describe('executeQuote', () => {
  const quote = {} as GatewayQuoteV4;
  test('with a signer it resolves to the settled order, without one to what the user must pay or sign', () => {
    expectTypeOf(executeQuote(client, quote, { signer: {} })).resolves.toEqualTypeOf<GatewayOrderInfoV3>();
    expectTypeOf(executeQuote(client, quote)).resolves.toEqualTypeOf<PaymentRequest>();
    expectTypeOf(executeQuote(client, quote, { onProgress: () => {} })).resolves.toEqualTypeOf<PaymentRequest>();
  });

  test('with options whose signer may be absent it resolves to either', () => {
    const options: ExecuteQuoteOptions = { signer: Math.random() > 0.5 ? {} : undefined };
    expectTypeOf(executeQuote(client, quote, options)).resolves.toEqualTypeOf<GatewayOrderInfoV3 | PaymentRequest>();
    expectTypeOf(executeQuote(client, quote, { signer: options.signer })).resolves.toEqualTypeOf<GatewayOrderInfoV3 | PaymentRequest>();
  });

  test('errors keep what the wallet returned', () => {
    expectTypeOf<OrderExecutionError['txHash']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<OrderExecutionError['signedTransactionHex']>().toEqualTypeOf<string | undefined>();
  });

  test('a PaymentRequest narrows by route', () => {
    const request = {} as PaymentRequest;
    if (request.route === 'onramp') expectTypeOf(request.amount).toEqualTypeOf<bigint>();
    else expectTypeOf(request.tx.type).toEqualTypeOf<'evm' | 'tron' | 'solana'>();
  });

  test('errors name the order and the step', () => {
    expectTypeOf<OrderExecutionError['orderId']>().toEqualTypeOf<string>();
    expectTypeOf<OrderExecutionError['step']>().toEqualTypeOf<'sign' | 'register' | 'send' | 'wait'>();
  });
});
