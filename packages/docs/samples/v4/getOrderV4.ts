import { createGatewayClient, stateOf } from '@swap-gateway/client';

const gateway = createGatewayClient({
  baseUrl: process.env.GATEWAY_URL,
  apiKey: process.env.GATEWAY_API_KEY, // optional
});

// By order id, source Bitcoin txid or source EVM transaction hash.
const order = await gateway.getOrder('8d3c7a0e-5f1b-4b6e-9a51-2f0c7e4d9b12');
const { state } = stateOf(order); // inProgress, success, failed or refunded
console.error(`order ${order.id} is ${state}`);
console.log(JSON.stringify(order, null, 2));
