import { createGatewayClient } from '@swap-gateway/client';

const gateway = createGatewayClient({
  baseUrl: process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080', // the local sandbox (pnpm server) unless set
  apiKey: process.env.GATEWAY_API_KEY || undefined, // optional: sent as a bearer token when set
});

// Onramp: 0.01 BTC (1000000 sats) to wrapped BTC on BOB. `slippage` is left out, so the service
// chooses the route's tolerance and reports it in the quote.
const quote = await gateway.getQuote({
  srcChain: 'bitcoin',
  dstChain: 'bob',
  srcToken: '0x0000000000000000000000000000000000000000',
  dstToken: '0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3',
  amount: '1000000',
  recipient: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F',
  sender: 'bc1q3ftg88fp55ek66v7jg5dl4q0esy96rd92epged',
  refundAddress: 'bc1q3ftg88fp55ek66v7jg5dl4q0esy96rd92epged',
  affiliates: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045:25',
});
console.log(JSON.stringify(quote, null, 2));
