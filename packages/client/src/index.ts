export {
  createGatewayClient,
  defaultEnvironments,
  type CallOptions,
  type GatewayClient,
  type GatewayClientOptions,
  type GatewayEnvironment,
  type IterateOrdersOptions,
  type WaitForOrderOptions,
} from './client.js';
export {
  GatewayApiError,
  GatewayError,
  GatewayNetworkError,
  GatewayTimeoutError,
  isGatewayApiError,
  isGatewayError,
  isGatewayNetworkError,
  isGatewayTimeoutError,
  type GatewayClientError,
  type GatewayRequestInfo,
} from './errors.js';
export type { RetryOptions } from './retry.js';
export { PreparedRequest, type FetchFunction } from './transport.js';
export { isRoute, isSettled, registeredTxid, routeOf, stateOf, type KeyedEntry } from './unions.js';
export { decodeSolanaTransaction } from './solana.js';
export type { GatewayApi, GatewayApiMethod, GatewayApiResponse } from './api.js';
export {
  executeQuote,
  OrderExecutionError,
  type ExecuteQuoteOptions,
  type ExecutionProgress,
  type ExecutionStep,
  type PaymentRequest,
} from './execute.js';
export type {
  BitcoinPayment,
  BitcoinSigner,
  EvmSender,
  EvmTransaction,
  Signers,
  SolanaSigner,
  TronSender,
  TronTransaction,
} from './signers.js';
export type * from '@swap-gateway/types';
