import { createGatewayClient } from '@swap-gateway/client';

const gateway = createGatewayClient({
  baseUrl: process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080', // the local sandbox (pnpm server) unless set
  apiKey: process.env.GATEWAY_API_KEY || undefined, // optional: sent as a bearer token when set
});

// V3, kept for existing integrations; gateway.getOrder (V4) answers the same order info.
const order = await gateway.getOrderV3(process.env.ORDER_ID!);
console.log(JSON.stringify(order, null, 2));
