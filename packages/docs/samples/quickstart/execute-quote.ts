import { randomBytes } from 'node:crypto';
import { createGatewayClient, executeQuote, stateOf } from '@swap-gateway/client';
import { bitcoinjsSigner } from '@swap-gateway/client/bitcoinjs';
import { BIP32Factory } from 'bip32';
import * as ecc from 'tiny-secp256k1';

const gateway = createGatewayClient({
  baseUrl: process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080', // the local sandbox (pnpm server) unless set
  apiKey: process.env.GATEWAY_API_KEY || undefined, // optional: sent as a bearer token when set
});

// The user's Bitcoin wallet: the bitcoinjs signer over a key. In the sandbox any new key will do,
// since its simulated chain gives every address coins; your app signs with the user's wallet.
const wallet = bitcoinjsSigner({ hdNode: BIP32Factory(ecc).fromSeed(randomBytes(32)) });

// A quote that names the wallet as `sender`: the order then carries a PSBT spending its coins.
const quote = await gateway.getQuote({
  srcChain: 'bitcoin',
  dstChain: 'bob',
  srcToken: '0x0000000000000000000000000000000000000000',
  dstToken: '0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3',
  amount: '1000000',
  recipient: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F',
  sender: wallet.address,
  refundAddress: wallet.address,
});

// create-order, the wallet signs the PSBT, register-tx, then the order is followed until it settles.
const settled = await executeQuote(gateway, quote, {
  signer: { bitcoin: wallet },
  onProgress: (event) => {
    if (event.type === 'created') console.log(`order ${event.orderId} created`);
    if (event.type === 'signed') console.log('payment signed by the wallet');
    if (event.type === 'registered') console.log(`payment registered, broadcast as ${event.txid}`);
    if (event.type === 'status') console.log(`status: ${stateOf(event.order).state}`);
  },
  wait: { intervalMs: 2_000, timeoutMs: 10 * 60_000 },
});
console.log(`settled: ${stateOf(settled).state}`);
