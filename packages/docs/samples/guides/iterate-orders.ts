import { createGatewayClient, stateOf } from '@swap-gateway/client';

const gateway = createGatewayClient({
  baseUrl: process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080', // the local sandbox (pnpm server) unless set
  apiKey: process.env.GATEWAY_API_KEY || undefined, // optional: sent as a bearer token when set
});

// Every order of the address, page after page: nextCursor is reused as cursor
// until it is null or absent.
const user = '0x71C7656EC7ab88b098defB751B7401B5f6d8976F';
for await (const order of gateway.iterateOrders(user, { limit: 50 })) {
  console.log(order.id, stateOf(order).state);
}
