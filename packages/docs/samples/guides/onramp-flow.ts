import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { text } from 'node:stream/consumers';
import { createGatewayClient, registeredTxid, routeOf, stateOf } from '@swap-gateway/client';

const gateway = createGatewayClient({
  baseUrl: process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080', // the local sandbox (pnpm server) unless set
  apiKey: process.env.GATEWAY_API_KEY || undefined, // optional: sent as a bearer token when set
});

// 1. Quote: 0.01 BTC from the user's Bitcoin address to wrapped BTC on BOB. With `sender`, the
//    order carries a PSBT spending the sender's coins; `refundAddress` makes the quote executable.
const sender = process.env.BITCOIN_ADDRESS!;
const quote = await gateway.getQuote({
  srcChain: 'bitcoin',
  dstChain: 'bob',
  srcToken: '0x0000000000000000000000000000000000000000',
  dstToken: '0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3',
  amount: '1000000',
  recipient: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F',
  sender,
  refundAddress: sender,
});

// 2. Order: the quote goes back unchanged.
const order = routeOf(await gateway.createOrder(quote));
if (order.route !== 'onramp' || !order.value.psbt_hex) throw new Error('expected an onramp order with a PSBT');
const orderId = order.value.order_id;

// 3. The user's wallet signs and finalizes the PSBT. Here a command of your wallet
//    (SIGN_PSBT_COMMAND) reads the PSBT in hex and prints the signed raw transaction. Wait for it
//    without blocking: a wallet waits for its user, and meanwhile the gateway closes the idle
//    connection, which fetch must see closed rather than send the next request on it.
const wallet = spawn(process.env.SIGN_PSBT_COMMAND!, { shell: true, stdio: ['pipe', 'pipe', 'inherit'] });
wallet.stdin.end(order.value.psbt_hex);
const [signed, [exitCode]] = await Promise.all([text(wallet.stdout), once(wallet, 'close')]);
if (exitCode !== 0) throw new Error(`the wallet command exited with status ${exitCode}`);
const signedTxHex = signed.trim();

// 4. Register the raw transaction: the service checks it against the order and broadcasts it.
const txid = registeredTxid(await gateway.registerTx({ onramp: { order_id: orderId, bitcoin_tx_hex: signedTxHex } }));
console.error(`order ${orderId}: broadcast ${txid ?? '(the answer names no txid)'}`);

// 5. Wait until the order is settled: success, failed or refunded.
const settled = await gateway.waitForOrder(orderId, { intervalMs: 2_000, timeoutMs: 10 * 60 * 1000 });
console.log(stateOf(settled).state);
