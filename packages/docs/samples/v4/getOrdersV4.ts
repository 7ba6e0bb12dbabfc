import { createGatewayClient } from '@swap-gateway/client';

const gateway = createGatewayClient({
  baseUrl: process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080', // the local sandbox (pnpm server) unless set
  apiKey: process.env.GATEWAY_API_KEY || undefined, // optional: sent as a bearer token when set
});

// One page. gateway.iterateOrders(address) walks every page for you,
// reusing nextCursor as cursor.
const page = await gateway.getOrders('0x71C7656EC7ab88b098defB751B7401B5f6d8976F', { limit: 20 });
console.error(`${page.orders.length} orders, ${page.nextCursor ? 'more to come' : 'last page'}`);
console.log(JSON.stringify(page, null, 2));
