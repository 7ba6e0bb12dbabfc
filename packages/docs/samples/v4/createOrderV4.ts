import { createGatewayClient, routeOf } from '@swap-gateway/client';

const gateway = createGatewayClient({
  baseUrl: process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080', // the local sandbox (pnpm server) unless set
  apiKey: process.env.GATEWAY_API_KEY || undefined, // optional: sent as a bearer token when set
});

// A quote can only be executed when it was requested with a refund address.
const quote = await gateway.getQuote({
  srcChain: 'bitcoin',
  dstChain: 'bob',
  srcToken: '0x0000000000000000000000000000000000000000',
  dstToken: '0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3',
  amount: '1000000',
  recipient: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F',
  refundAddress: 'bc1q3ftg88fp55ek66v7jg5dl4q0esy96rd92epged',
});

// Pass the quote unchanged. The result says what the user executes next.
const order = await gateway.createOrder(quote);
const { route, value } = routeOf(order);
if (route === 'onramp') {
  console.error(`order ${value.order_id}: pay ${value.address}, or sign the PSBT when there is one`);
} else {
  console.error(`order ${value.order_id}: sign and broadcast the ${value.tx.type} transaction`);
}
console.log(JSON.stringify(order, null, 2));
