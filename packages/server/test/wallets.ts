/**
 * Test wallets of every standard script type, and payments they sign that spend the outputs the
 * simulated chain handed them (so register-tx finds the prevouts and verifies the signatures).
 */
import { createHash } from 'node:crypto';
import { BIP32Factory, type BIP32Interface } from 'bip32';
import * as bitcoin from 'bitcoinjs-lib';
import * as ecc from 'tiny-secp256k1';
import { SimulatedBitcoin } from '../src/chains/bitcoin.js';
import { loadConfig } from '../src/config/config.js';

bitcoin.initEccLib(ecc);

export type ScriptType = 'p2wpkh' | 'p2pkh' | 'p2sh-p2wpkh' | 'p2wsh' | 'p2tr';

export interface TestWallet {
  type: ScriptType;
  address: string;
  key: BIP32Interface;
}

export function wallet(type: ScriptType, label: string = type): TestWallet {
  const key = BIP32Factory(ecc).fromSeed(createHash('sha256').update(`server tests wallet ${label}`).digest());
  const pubkey = key.publicKey;
  const address = {
    p2wpkh: () => bitcoin.payments.p2wpkh({ pubkey }).address!,
    p2pkh: () => bitcoin.payments.p2pkh({ pubkey }).address!,
    'p2sh-p2wpkh': () => bitcoin.payments.p2sh({ redeem: bitcoin.payments.p2wpkh({ pubkey }) }).address!,
    p2wsh: () => bitcoin.payments.p2wsh({ redeem: bitcoin.payments.p2pk({ pubkey }) }).address!,
    p2tr: () => bitcoin.payments.p2tr({ internalPubkey: bitcoin.toXOnly(pubkey) }).address!,
  }[type]();
  return { type, address, key };
}

/** The UTXOs the server's simulated chain gives an address: the same computation, with the sandbox's configuration. */
export async function simulatedUtxos(address: string) {
  return new SimulatedBitcoin(loadConfig({ env: {} }).bitcoin).utxos(address);
}

/** The sum of those UTXOs, in sats. */
export async function simulatedBalance(address: string): Promise<bigint> {
  return (await simulatedUtxos(address)).reduce((sum, utxo) => sum + utxo.value, 0n);
}

export type Output = { address?: string; opReturn?: string; value: bigint };

/**
 * A payment signed by the wallet, spending its first simulated UTXO, change back to the wallet. The caller first lets the
 * server hand that UTXO out (get-max-spendable of the wallet's address).
 */
export async function signedPayment(from: TestWallet, outputs: Output[]): Promise<string> {
  const [utxo] = await simulatedUtxos(from.address);
  const pubkey = from.key.publicKey;
  const script = bitcoin.address.toOutputScript(from.address);
  const psbt = new bitcoin.Psbt();
  const witnessUtxo = { script, value: utxo!.value };
  const input = {
    p2wpkh: { witnessUtxo },
    p2pkh: { nonWitnessUtxo: Buffer.from(utxo!.transactionHex, 'hex') },
    'p2sh-p2wpkh': { witnessUtxo, redeemScript: bitcoin.payments.p2wpkh({ pubkey }).output! },
    p2wsh: { witnessUtxo, witnessScript: bitcoin.payments.p2pk({ pubkey }).output! },
    p2tr: { witnessUtxo, tapInternalKey: bitcoin.toXOnly(pubkey) },
  }[from.type];
  psbt.addInput({ hash: utxo!.txid, index: utxo!.vout, ...input });
  for (const output of outputs) {
    if (output.opReturn !== undefined)
      psbt.addOutput({ script: bitcoin.payments.embed({ data: [Buffer.from(output.opReturn, 'hex')] }).output!, value: 0n });
    else psbt.addOutput({ address: output.address!, value: output.value });
  }
  // The rest goes back to the wallet, less a fee at a few sat/vB.
  const spent = outputs.reduce((sum, output) => sum + output.value, 0n);
  psbt.addOutput({ address: from.address, value: utxo!.value - spent - 2000n });
  const signer = from.type === 'p2tr' ? from.key.tweak(bitcoin.crypto.taggedHash('TapTweak', bitcoin.toXOnly(pubkey))) : from.key;
  psbt.signInput(0, signer);
  psbt.finalizeAllInputs();
  return psbt.extractTransaction().toHex();
}
