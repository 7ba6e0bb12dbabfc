import { createGatewayClient } from '@swap-gateway/client';

// GATEWAY_URL is the base address of the API, the same for every version.
const gateway = createGatewayClient({
  baseUrl: process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080', // the local sandbox (pnpm server) unless set
  apiKey: process.env.GATEWAY_API_KEY || undefined, // optional: sent as a bearer token when set: a key gives higher rate limits
});

const routes = await gateway.getRoutes();
console.log(JSON.stringify(routes, null, 2));
