/** Typed document examples that several tests answer with. */
import type {
  GatewayCreateOrderV3,
  GatewayOrderInfoV3,
  GatewayOrdersPageV3,
  GatewayQuoteParamsV4,
  GatewayQuoteV3,
  GatewayQuoteV4,
  GatewayRegisterTxV4,
} from '@swap-gateway/types';
import { requestExamples, responseExample, responseExamples } from './document.js';

export const quoteParams: GatewayQuoteParamsV4 = {
  srcChain: 'bitcoin',
  dstChain: 'bob',
  recipient: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F',
  srcToken: '0x0000000000000000000000000000000000000000',
  dstToken: '0x0555E30da8f98308EdB960aa94C0Db47230d2B9c',
  amount: '1000000',
  refundAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
};

export const quotes = responseExamples('/v4/get-quote', 'get', '200') as Record<string, GatewayQuoteV4>;
export const quotesV3 = requestExamples('/v3/create-order', 'post') as Record<string, GatewayQuoteV3>;
export const createdOrders = responseExamples('/v4/create-order', 'post', '201') as Record<string, GatewayCreateOrderV3>;
export const orders = responseExamples('/v4/get-order/{id}', 'get', '200') as Record<string, GatewayOrderInfoV3>;
export const firstPage = responseExample<GatewayOrdersPageV3>('/v4/get-orders/{user_address}', 'get', '200', 'firstPage');

export const registerTxBody = requestExamples('/v4/register-tx', 'patch').onramp as GatewayRegisterTxV4;
