export {
  createGatewayClient,
  type CallOptions,
  type GatewayClient,
  type IterateOrdersOptions,
  type WaitForOrderOptions,
} from './client.js';
export { defaultEnvironments, type GatewayClientOptions, type GatewayEnvironment } from './connection.js';
export {
  GatewayApiError,
  GatewayError,
  GatewayNetworkError,
  GatewayResponseError,
  GatewayTimeoutError,
  isGatewayApiError,
  isGatewayError,
  isGatewayNetworkError,
  isGatewayTimeoutError,
  type GatewayApiErrorOfCode,
  type GatewayClientError,
  type GatewayRequestInfo,
} from './errors.js';
export type { RetryOptions } from './retry.js';
export type { FetchFunction } from './transport.js';
export { isRoute, isSettled, registeredTxid, routeOf, stateOf, type KeyedEntry } from './unions.js';
export { decodeSolanaTransaction } from './solana.js';
export {
  executeQuote,
  OrderExecutionError,
  type ExecuteQuoteOptions,
  type ExecutionPayment,
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
