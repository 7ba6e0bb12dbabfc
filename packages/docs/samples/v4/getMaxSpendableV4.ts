import { createGatewayClient } from '@swap-gateway/client';

const gateway = createGatewayClient({
  baseUrl: process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080', // the local sandbox (pnpm server) unless set
  apiKey: process.env.GATEWAY_API_KEY || undefined, // optional: sent as a bearer token when set
});

// How much Bitcoin this address can spend on an onramp: { userAddress, amount }, the amount in sats.
const spendable = await gateway.getMaxSpendable('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
console.log(JSON.stringify(spendable, null, 2));
