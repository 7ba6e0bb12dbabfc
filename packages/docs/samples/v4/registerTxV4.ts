import { createGatewayClient, registeredTxid } from '@swap-gateway/client';

const gateway = createGatewayClient({
  baseUrl: process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080', // the local sandbox (pnpm server) unless set
  apiKey: process.env.GATEWAY_API_KEY || undefined, // optional: sent as a bearer token when set
});

// The order id from create-order, and the raw transaction the user's wallet signed and
// finalized (from the order's PSBT, or a payment to its address). The service validates it
// against the order, screens it and broadcasts it.
const orderId = process.env.ORDER_ID!;
const signedTxHex = process.env.SIGNED_TX_HEX!;

const result = await gateway.registerTx({
  onramp: { order_id: orderId, bitcoin_tx_hex: signedTxHex },
});
// The answer carries the txid as { onramp: { txid } }; a plain string may hold no txid (it
// may be "ok"), and registeredTxid gives undefined then.
console.error(`broadcast ${registeredTxid(result) ?? '(the answer names no txid)'}`);
console.log(JSON.stringify(result, null, 2));
