/**
 * The Bitcoin side of the gateway: per-order deposit addresses derived from the operator's extended
 * public key, the UTXO view of an address, PSBTs that pay an order, parsing and checking a raw
 * payment, and broadcasting it.
 *
 * `BitcoinAdapter` is the boundary to the network. The default `SimulatedBitcoin` needs no network:
 * every address holds a deterministic set of confirmed UTXOs (from a hash of the address), and a
 * broadcast transaction is recorded rather than relayed.
 */
import { createHash } from 'node:crypto';
import { BIP32Factory, type BIP32Interface } from 'bip32';
import { bitcoinLib, bitcoinNetwork, ecc, type BitcoinNetwork } from './bitcoin-lib.js';

const bip32 = BIP32Factory(ecc);

export interface Utxo {
  txid: string;
  vout: number;
  value: bigint;
  /** The full previous transaction, which a PSBT input needs for legacy outputs. */
  transactionHex: string;
}

export interface BitcoinAdapter {
  readonly network: BitcoinNetwork;
  /** Fee rate in sat/vB. */
  feeRate(): number;
  /** Confirmed, spendable outputs of an address. */
  utxos(address: string): Promise<Utxo[]>;
  /** Hands a raw transaction to the network; resolves to its txid. */
  broadcast(transactionHex: string): Promise<string>;
}

export interface BitcoinConfig {
  network: 'bitcoin' | 'testnet' | 'regtest';
  feeRate: number;
  simulatedBalanceSats: string;
}

export class SimulatedBitcoin implements BitcoinAdapter {
  readonly network: BitcoinNetwork;
  readonly broadcasts: string[] = [];

  constructor(private readonly config: BitcoinConfig) {
    this.network = bitcoinNetwork(config.network);
  }

  feeRate(): number {
    return this.config.feeRate;
  }

  /** Three outputs splitting the configured balance 50/30/20, each in its own funding transaction. */
  async utxos(address: string): Promise<Utxo[]> {
    const script = bitcoinLib.address.toOutputScript(address, this.network);
    const balance = BigInt(this.config.simulatedBalanceSats);
    return [50n, 30n, 20n].map((share, index) => {
      const funding = new bitcoinLib.Transaction();
      funding.version = 2;
      funding.addInput(sha256(`funding:${address}:${index}`), 0);
      funding.addOutput(script, (balance * share) / 100n);
      return { txid: funding.getId(), vout: 0, value: (balance * share) / 100n, transactionHex: funding.toHex() };
    });
  }

  async broadcast(transactionHex: string): Promise<string> {
    this.broadcasts.push(transactionHex);
    return bitcoinLib.Transaction.fromHex(transactionHex).getId();
  }
}

/** Deposit addresses: native SegWit addresses at m/0/<index> of the operator's extended public key. */
export class DepositAddresses {
  private readonly root: BIP32Interface;

  constructor(
    extendedPublicKey: string,
    private readonly network: BitcoinNetwork,
  ) {
    this.root = bip32.fromBase58(extendedPublicKey, network);
  }

  at(index: number): string {
    const child = this.root.derive(0).derive(index);
    return bitcoinLib.payments.p2wpkh({ pubkey: child.publicKey, network: this.network }).address!;
  }
}

/** Rough virtual sizes of P2WPKH spends, enough to price a fee. */
const vbytes = { overhead: 11, input: 68, output: 31, opReturn: 43 };
const dustLimit = 546n;

export interface PaymentPlan {
  psbtHex: string;
  fee: bigint;
}

/** The shortfall of a sender that cannot fund a payment (INSUFFICIENT_CONFIRMED_FUNDS). */
export class InsufficientFunds extends Error {
  constructor(
    readonly required: bigint,
    readonly available: bigint,
  ) {
    super('insufficient confirmed funds');
  }
}

/**
 * An unsigned PSBT paying `amount` to `to` with an OP_RETURN of `opReturnHex`, funded from the
 * sender's largest UTXOs first, change back to the sender.
 */
export function buildPaymentPsbt(args: {
  network: BitcoinNetwork;
  sender: string;
  utxos: Utxo[];
  to: string;
  amount: bigint;
  opReturnHex: string;
  feeRate: number;
}): PaymentPlan {
  const { network, sender, to, amount, opReturnHex, feeRate } = args;
  const senderScript = bitcoinLib.address.toOutputScript(sender, network);
  const segwit = senderScript[0] === 0x00 || senderScript[0] === 0x51;
  const candidates = [...args.utxos].sort((a, b) => (b.value > a.value ? 1 : b.value < a.value ? -1 : 0));
  const chosen: Utxo[] = [];
  let total = 0n;
  const feeFor = (inputs: number) => BigInt(Math.ceil((vbytes.overhead + vbytes.input * inputs + vbytes.output * 2 + vbytes.opReturn) * feeRate));
  for (const utxo of candidates) {
    if (total >= amount + feeFor(chosen.length)) break;
    chosen.push(utxo);
    total += utxo.value;
  }
  const fee = feeFor(chosen.length);
  if (total < amount + fee) throw new InsufficientFunds(amount + feeFor(candidates.length), candidates.reduce((sum, utxo) => sum + utxo.value, 0n));

  const psbt = new bitcoinLib.Psbt({ network });
  for (const utxo of chosen) {
    psbt.addInput({
      hash: utxo.txid,
      index: utxo.vout,
      nonWitnessUtxo: fromHex(utxo.transactionHex),
      ...(segwit ? { witnessUtxo: { script: senderScript, value: utxo.value } } : {}),
    });
  }
  psbt.addOutput({ address: to, value: amount });
  psbt.addOutput({ script: bitcoinLib.payments.embed({ data: [fromHex(opReturnHex)] }).output!, value: 0n });
  const change = total - amount - fee;
  if (change >= dustLimit) psbt.addOutput({ address: sender, value: change });
  return { psbtHex: psbt.toHex(), fee };
}

/** The most the address can pay an onramp: all its UTXOs, minus the fee of spending them. */
export function maxSpendable(utxos: Utxo[], feeRate: number): { balance: bigint; maxSpendable: bigint } {
  const balance = utxos.reduce((sum, utxo) => sum + utxo.value, 0n);
  const fee = BigInt(Math.ceil((vbytes.overhead + vbytes.input * utxos.length + vbytes.output + vbytes.opReturn) * feeRate));
  return { balance, maxSpendable: balance > fee ? balance - fee : 0n };
}

/** What register-tx needs to know about a raw payment. */
export interface ParsedPayment {
  txid: string;
  /** Sats paid to the given address. */
  paid: bigint;
  /** Data of the OP_RETURN outputs, hex. */
  opReturns: string[];
  /** Addresses the transaction pays to or spends from (where the script reveals them). */
  addresses: string[];
  signed: boolean;
}

export function parsePayment(transactionHex: string, depositAddress: string, network: BitcoinNetwork): ParsedPayment {
  const transaction = bitcoinLib.Transaction.fromHex(transactionHex);
  const depositScript = bitcoinLib.address.toOutputScript(depositAddress, network);
  let paid = 0n;
  const opReturns: string[] = [];
  const addresses = new Set<string>();
  for (const output of transaction.outs) {
    if (equalBytes(output.script, depositScript)) paid += output.value;
    if (output.script[0] === bitcoinLib.opcodes.OP_RETURN) {
      const data = (bitcoinLib.script.decompile(output.script) ?? []).slice(1).filter((chunk): chunk is Uint8Array => chunk instanceof Uint8Array);
      opReturns.push(data.map(toHex).join(''));
      continue;
    }
    try {
      addresses.add(bitcoinLib.address.fromOutputScript(output.script, network));
    } catch {
      // A non-standard output has no address to screen.
    }
  }
  for (const input of transaction.ins) {
    const spender = inputAddress(input, network);
    if (spender) addresses.add(spender);
  }
  const signed = transaction.ins.length > 0 && transaction.ins.every((input) => input.script.length > 0 || input.witness.length > 0);
  return { txid: transaction.getId(), paid, opReturns, addresses: [...addresses], signed };
}

/** The address an input spends from, when its script or witness carries a public key (P2WPKH, P2PKH). */
function inputAddress(input: { script: Uint8Array; witness: Uint8Array[] }, network: BitcoinNetwork): string | undefined {
  const pubkey = input.witness.length === 2 ? input.witness[1] : (bitcoinLib.script.decompile(input.script) ?? [])[1];
  if (!(pubkey instanceof Uint8Array) || pubkey.length !== 33) return undefined;
  return input.witness.length === 2
    ? bitcoinLib.payments.p2wpkh({ pubkey, network }).address
    : bitcoinLib.payments.p2pkh({ pubkey, network }).address;
}

export const psbtMagicHex = '70736274ff';

const sha256 = (text: string) => createHash('sha256').update(text).digest();
const fromHex = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'));
const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const equalBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, index) => byte === b[index]);
