import { createGatewayClient, stateOf } from '@swap-gateway/client';

const gateway = createGatewayClient({
  baseUrl: process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080', // the local sandbox (pnpm server) unless set
  apiKey: process.env.GATEWAY_API_KEY || undefined, // optional: sent as a bearer token when set
});

// By order id, source Bitcoin txid or source EVM transaction hash.
const order = await gateway.getOrder(process.env.ORDER_ID!);
const { state } = stateOf(order); // inProgress, success, failed or refunded
console.error(`order ${order.id} is ${state}`);
console.log(JSON.stringify(order, null, 2));
