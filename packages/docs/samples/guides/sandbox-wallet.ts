// A Bitcoin wallet command for the sandbox, over the client's bitcoinjs signer: with --address it
// prints its address, otherwise it reads a PSBT in hex on stdin and prints the signed raw
// transaction. Its key comes from SANDBOX_WALLET_SEED (any text): never use such a key on a real chain.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { bitcoinjsSigner } from '@swap-gateway/client/bitcoinjs';
import { BIP32Factory } from 'bip32';
import * as ecc from 'tiny-secp256k1';

const seed = createHash('sha256')
  .update(process.env.SANDBOX_WALLET_SEED ?? 'sandbox wallet')
  .digest();
const wallet = bitcoinjsSigner({ hdNode: BIP32Factory(ecc).fromSeed(seed) });

if (process.argv.includes('--address')) console.log(wallet.address);
else console.log(await wallet.signPsbt(readFileSync(0, 'utf8').trim()));
