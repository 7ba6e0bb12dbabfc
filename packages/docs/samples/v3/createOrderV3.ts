import { readFileSync } from 'node:fs';
import { createGatewayClient, type GatewayQuoteV3 } from '@swap-gateway/client';

const gateway = createGatewayClient({
  baseUrl: process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080', // the local sandbox (pnpm server) unless set
  apiKey: process.env.GATEWAY_API_KEY || undefined, // optional: sent as a bearer token when set
});

// V3, kept for existing integrations: the V3 quote your integration received, unchanged.
const quote = JSON.parse(readFileSync('quote-v3.json', 'utf8')) as GatewayQuoteV3;
const order = await gateway.createOrderV3(quote);
console.log(JSON.stringify(order, null, 2));
