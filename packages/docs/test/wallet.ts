/**
 * A Bitcoin wallet the sample tests hold the key of (P2WPKH from a seed): the sandbox's simulated
 * chain gives every address coins, so an order quoted with this wallet as `sender` carries a PSBT
 * that this key signs. Run as a script, it is the wallet command of the onramp flow sample:
 * PSBT in hex on stdin, signed raw transaction on stdout (`WALLET_SEED` names the wallet).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BIP32Factory } from 'bip32';
import * as bitcoin from 'bitcoinjs-lib';
import * as ecc from 'tiny-secp256k1';

export function testWallet(seed: string) {
  const key = BIP32Factory(ecc).fromSeed(createHash('sha256').update(`docs samples wallet ${seed}`).digest());
  const address = bitcoin.payments.p2wpkh({ pubkey: key.publicKey }).address!;
  const sign = (psbtHex: string) => {
    const psbt = bitcoin.Psbt.fromHex(psbtHex);
    psbt.signAllInputs(key);
    psbt.finalizeAllInputs();
    return psbt.extractTransaction().toHex();
  };
  return { address, sign };
}

export const walletScript = fileURLToPath(import.meta.url);

if (process.argv[1] === walletScript) {
  process.stdout.write(testWallet(process.env.WALLET_SEED ?? '').sign(readFileSync(0, 'utf8').trim()));
}
