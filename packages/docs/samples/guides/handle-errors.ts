import { createGatewayClient, isGatewayApiError, type GatewayQuoteV4 } from '@swap-gateway/client';

const gateway = createGatewayClient({
  baseUrl: process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080', // the local sandbox (pnpm server) unless set
  apiKey: process.env.GATEWAY_API_KEY || undefined, // optional: sent as a bearer token when set
});

async function placeOrder(quote: GatewayQuoteV4) {
  try {
    return await gateway.createOrder(quote);
  } catch (error) {
    if (!isGatewayApiError(error)) throw error; // network failure or timeout: no answer to read
    switch (error.code) {
      case 'MISSING_REFUND_ADDRESS':
        // The quote was requested without refundAddress: request a new one with it.
        throw new Error('ask the user for a refund address and quote again', { cause: error });
      case 'ORDER_EXPIRED':
        throw new Error('the quote expired: quote again', { cause: error });
      case 'INSUFFICIENT_SOLVER_BALANCE':
        throw new Error('not enough liquidity right now: try a smaller amount or later', { cause: error });
      default:
        // error.status, error.code, error.error (the message) and error.details
        // (one of the detail shapes, or null).
        throw error;
    }
  }
}

// A quote requested without refundAddress cannot be executed.
const quote = await gateway.getQuote({
  srcChain: 'bitcoin',
  dstChain: 'bob',
  srcToken: '0x0000000000000000000000000000000000000000',
  dstToken: '0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3',
  amount: '1000000',
  recipient: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F',
});
await placeOrder(quote).catch((problem: Error) => console.log(problem.message));
