import { createGatewayClient } from '@swap-gateway/client';

const gateway = createGatewayClient({
  baseUrl: process.env.GATEWAY_URL,
  apiKey: process.env.GATEWAY_API_KEY, // optional
});

// V3, kept for existing integrations; gateway.getOrder (V4) answers the same order info.
const order = await gateway.getOrderV3('8d3c7a0e-5f1b-4b6e-9a51-2f0c7e4d9b12');
console.log(JSON.stringify(order, null, 2));
