import { createGatewayClient, stateOf } from '@swap-gateway/client';

const gateway = createGatewayClient({
  baseUrl: process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080', // the local sandbox (pnpm server) unless set
  apiKey: process.env.GATEWAY_API_KEY || undefined, // optional: sent as a bearer token when set
});

// Reads the order every 5 s (backing off after failed reads) until it is success,
// failed or refunded; gives up with a GatewayTimeoutError after 2 hours.
const order = await gateway.waitForOrder(process.env.ORDER_ID!, {
  intervalMs: 5_000,
  timeoutMs: 2 * 60 * 60 * 1000,
  onUpdate: (update) => console.log('order is', stateOf(update).state),
});

const { state, value } = stateOf(order);
if (state === 'success') console.log('received', value.received_tokens);
if (state === 'refunded') console.log('refunded', value.refunded_tokens);
if (state === 'failed') console.log('failed', value);
