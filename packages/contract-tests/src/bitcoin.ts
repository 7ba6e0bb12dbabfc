/**
 * A Bitcoin wallet for the flow scenarios: a fixed test key, its native SegWit address, and the
 * signing of the PSBT create-order returns for an onramp, so that register-tx receives a real,
 * finalized, signed transaction.
 */
import { createHash } from 'node:crypto';
import * as bitcoin from 'bitcoinjs-lib';
import { ECPairFactory } from 'ecpair';
import * as ecc from 'tiny-secp256k1';

bitcoin.initEccLib(ecc);
const ECPair = ECPairFactory(ecc);

export interface TestWallet {
  address: string;
  /** Signs every input of the PSBT, finalizes it and returns the raw transaction in hex. */
  signPsbt(psbtHex: string): { hex: string; txid: string };
}

/** A wallet derived from a label, on the network the target quotes for (the sandbox uses mainnet addresses). */
export function testWallet(label: string, network: bitcoin.networks.Network = bitcoin.networks.bitcoin): TestWallet {
  const key = ECPair.fromPrivateKey(createHash('sha256').update(`contract-tests:${label}`).digest(), { network });
  const address = bitcoin.payments.p2wpkh({ pubkey: key.publicKey, network }).address!;
  return {
    address,
    signPsbt(psbtHex) {
      const psbt = bitcoin.Psbt.fromHex(psbtHex, { network });
      psbt.signAllInputs(key);
      psbt.finalizeAllInputs();
      const transaction = psbt.extractTransaction();
      return { hex: transaction.toHex(), txid: transaction.getId() };
    },
  };
}
