import { createGatewayClient, isGatewayApiError } from '@swap-gateway/client';

// The client sends `Authorization: Bearer <key>` on every call, and refuses a key that is not
// exactly 32 characters before sending anything.
const gateway = createGatewayClient({
  baseUrl: process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080', // the local sandbox (pnpm server) unless set
  apiKey: process.env.GATEWAY_API_KEY || undefined, // optional: sent as a bearer token when set
});

try {
  console.log(await gateway.getRoutes());
} catch (error) {
  // 401: the key is malformed or unknown; 429: over the rate limit, after the client's own retries.
  if (isGatewayApiError(error)) console.error(error.status, error.code, error.error, error.details);
  throw error;
}
