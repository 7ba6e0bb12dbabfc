import { createGatewayClient, routeOf, stateOf } from '@swap-gateway/client';

const gateway = createGatewayClient({
  baseUrl: process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080', // the local sandbox (pnpm server) unless set
  apiKey: process.env.GATEWAY_API_KEY || undefined, // optional: sent as a bearer token when set
});

// 1. The routes: which token on which chain goes to which token on which chain.
const routes = await gateway.getRoutes();
console.log(`${routes.length} routes, among them bitcoin to bob: ${routes.some((r) => r.srcChain === 'bitcoin' && r.dstChain === 'bob')}`);

// 2. A quote: 0.01 BTC (1000000 sats) to wrapped BTC on BOB. The refund address makes it executable.
const quote = await gateway.getQuote({
  srcChain: 'bitcoin',
  dstChain: 'bob',
  srcToken: '0x0000000000000000000000000000000000000000',
  dstToken: '0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3',
  amount: '1000000',
  recipient: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F',
  refundAddress: 'bc1q3ftg88fp55ek66v7jg5dl4q0esy96rd92epged',
});
const { route, value } = routeOf(quote);
if (route !== 'onramp') throw new Error(`expected an onramp quote, got ${route}`);
console.log(`quote: pay ${value.inputAmount.amount} sats, receive ${value.outputAmount.amount} WBTC units, fees ${value.fees.amount}`);

// 3. The order: the quote goes back unchanged; the answer says what the user pays.
const order = routeOf(await gateway.createOrder(quote));
if (order.route !== 'onramp') throw new Error(`expected an onramp order, got ${order.route}`);
console.log(`order ${order.value.order_id}: pay ${value.inputAmount.amount} sats to ${order.value.address}`);

// 4. Follow the order: inProgress until the payment is registered and settles.
const info = await gateway.getOrder(order.value.order_id);
console.log(`status: ${stateOf(info).state}`);
