import { createGatewayClient } from '@swap-gateway/client';

// GATEWAY_URL is the base address of the API, the same for every version.
const gateway = createGatewayClient({
  baseUrl: process.env.GATEWAY_URL,
  apiKey: process.env.GATEWAY_API_KEY, // optional: a key gives higher rate limits
});

const routes = await gateway.getRoutes();
console.log(JSON.stringify(routes, null, 2));
