import { createGatewayClient } from '@swap-gateway/client';

const gateway = createGatewayClient({
  baseUrl: process.env.GATEWAY_URL,
  apiKey: process.env.GATEWAY_API_KEY, // optional
});

// V3, kept for existing integrations; gateway.getOrder (V4) answers the same order info.
const order = await gateway.getOrderV3(process.env.ORDER_ID!);
console.log(JSON.stringify(order, null, 2));
