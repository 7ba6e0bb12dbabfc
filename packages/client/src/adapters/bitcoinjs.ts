/**
 * `@swap-gateway/client/bitcoinjs`: a `BitcoinSigner` over bitcoinjs-lib (an optional peer
 * dependency, v7) for a native SegWit (P2WPKH) wallet, from a key (ECPair, or any bitcoinjs-lib
 * `Signer`) or from an HD node and a derivation path (bip32).
 *
 * ```ts
 * import { bitcoinjsSigner } from '@swap-gateway/client/bitcoinjs';
 * const bitcoin = bitcoinjsSigner({ hdNode: root, path: "m/84'/0'/0'/0/0", utxos: (address) => myIndexer.utxos(address) });
 * await executeQuote(gateway, quote, { signer: { bitcoin } });
 * ```
 *
 * It signs the order's PSBT when the quote named the wallet as `sender`; otherwise it builds the
 * payment itself from the outputs `utxos` lists (largest first, change back to the wallet). It
 * never broadcasts: the gateway does, once register-tx has checked the payment.
 */
import { Psbt, networks, payments, type Network, type Signer } from 'bitcoinjs-lib';
import type { BitcoinPayment, BitcoinSigner } from '../signers.js';

/** An output the wallet owns, as an indexer lists it (Esplora's `/address/:address/utxo`, ...). */
export interface BitcoinjsUtxo {
  txid: string;
  vout: number;
  /** Satoshis. */
  value: bigint | number | string;
}

export type BitcoinjsSignerOptions = ({ key: Signer } | { hdNode: { derivePath(path: string): Signer }; path?: string }) & {
  /** Default `networks.bitcoin`. */
  network?: Network;
  /** The wallet's confirmed outputs; needed to build payments (orders without a PSBT). */
  utxos?: (address: string) => Promise<BitcoinjsUtxo[]>;
  /** Fee rate of the payments it builds, in sat/vB. Default 2. */
  feeRate?: number;
};

export interface BitcoinjsSigner extends Required<BitcoinSigner> {
  /** The wallet's P2WPKH address: the quote's `sender` for the PSBT path, and where change goes. */
  readonly address: string;
}

/** Virtual sizes of a P2WPKH spend, to price the fee of a payment. */
const vbytes = { overhead: 11, input: 68, output: 31, opReturnOverhead: 11 };
const dustLimit = 546n;

export function bitcoinjsSigner(options: BitcoinjsSignerOptions, ...misplaced: never[]): BitcoinjsSigner {
  // A network passed as a second argument would be ignored, and the key give a mainnet address.
  if (misplaced.length)
    throw new TypeError('bitcoinjsSigner takes one options object: { key or hdNode, path?, network?, utxos?, feeRate? }');
  const network = options.network ?? networks.bitcoin;
  // BIP 84's first receiving key: coin type 0 on mainnet, 1 on the test networks.
  const key =
    'key' in options ? options.key : options.hdNode.derivePath(options.path ?? `m/84'/${network === networks.bitcoin ? 0 : 1}'/0'/0/0`);
  const { address, output: script } = payments.p2wpkh({ pubkey: key.publicKey, network });
  const { utxos, feeRate = 2 } = options;

  const finalized = (psbt: Psbt) => {
    psbt.signAllInputs(key);
    psbt.finalizeAllInputs();
    return psbt.extractTransaction().toHex();
  };

  return {
    address: address!,
    async signPsbt(psbtHex) {
      return finalized(Psbt.fromHex(psbtHex, { network }));
    },
    async signPayment({ address: to, amount, opReturnData }: BitcoinPayment) {
      if (!utxos) throw new TypeError('bitcoinjsSigner needs utxos to build a payment');
      const available = (await utxos(address!))
        .map((utxo) => ({ ...utxo, value: BigInt(utxo.value) }))
        .sort((a, b) => (b.value > a.value ? 1 : -1));
      const opReturn = opReturnData === null ? undefined : payments.embed({ data: [hexToBytes(opReturnData)] }).output!;
      const fixedSize = vbytes.overhead + vbytes.output * 2 + (opReturn ? vbytes.opReturnOverhead + opReturn.length : 0);
      const feeFor = (inputs: number) => BigInt(Math.ceil((fixedSize + vbytes.input * inputs) * feeRate));
      const psbt = new Psbt({ network });
      let total = 0n;
      for (const utxo of available) {
        if (total >= amount + feeFor(psbt.inputCount)) break;
        psbt.addInput({ hash: utxo.txid, index: utxo.vout, witnessUtxo: { script: script!, value: utxo.value } });
        total += utxo.value;
      }
      const fee = feeFor(psbt.inputCount);
      if (total < amount + fee)
        throw new RangeError(`${address} holds ${total} sats, less than the ${amount} sats and ${fee} sats of fee to pay`);
      psbt.addOutput({ address: to, value: amount });
      if (opReturn) psbt.addOutput({ script: opReturn, value: 0n });
      if (total - amount - fee >= dustLimit) psbt.addOutput({ address: address!, value: total - amount - fee });
      return finalized(psbt);
    },
  };
}

function hexToBytes(hex: string): Uint8Array {
  if (!/^(?:[0-9a-f]{2})*$/i.test(hex)) throw new TypeError('the OP_RETURN data is not hex');
  return Uint8Array.from(hex.match(/../g) ?? [], (byte) => parseInt(byte, 16));
}
