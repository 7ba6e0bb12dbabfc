import { createGatewayClient } from '@swap-gateway/client';

const gateway = createGatewayClient({
  baseUrl: process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080', // the local sandbox (pnpm server) unless set
  apiKey: process.env.GATEWAY_API_KEY || undefined, // optional: sent as a bearer token when set
});

// V3, kept for existing integrations; gateway.getOrders (V4) takes the same cursor and limit.
const page = await gateway.getOrdersV3('0x71C7656EC7ab88b098defB751B7401B5f6d8976F', { limit: 20 });
console.log(JSON.stringify(page, null, 2));
