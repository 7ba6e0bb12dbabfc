import { createGatewayClient } from '@swap-gateway/client';

// GATEWAY_URL is the base address of the API; the key is optional (higher rate limits).
const gateway = createGatewayClient({ baseUrl: process.env.GATEWAY_URL, apiKey: process.env.GATEWAY_API_KEY });

const routes = await gateway.getRoutes();
console.log(JSON.stringify(routes, null, 2));
