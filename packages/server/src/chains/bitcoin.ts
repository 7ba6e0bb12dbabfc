/**
 * The Bitcoin side of the gateway: per-order deposit addresses derived from the operator's extended
 * public key, the UTXO view of an address, PSBTs that pay an order, parsing and checking a raw
 * payment, and broadcasting it.
 *
 * `BitcoinAdapter` is the boundary to the network. The default `SimulatedBitcoin` needs no network:
 * every address holds a deterministic set of confirmed UTXOs (their funding transactions and their
 * balance derive from a hash of the address), the chain knows the outputs it has handed out, and a
 * broadcast transaction is recorded rather than relayed.
 */
import { createHash } from 'node:crypto';
import { BIP32Factory, type BIP32Interface } from 'bip32';
import type { Queryable } from '../store/database.js';
import { bitcoinLib, bitcoinNetwork, ecc, type BitcoinNetwork } from './bitcoin-lib.js';
import { normalizeAddress } from './addresses.js';
import { largestAmount } from './amounts.js';

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
  /**
   * The output an input spends, or undefined when the chain does not know it. register-tx refuses
   * inputs whose output is unknown, so an adapter without this method accepts no payment.
   */
  prevout?(txid: string, vout: number): Promise<Prevout | undefined>;
  /** Hands a raw transaction to the network; resolves to its txid. */
  broadcast(transactionHex: string): Promise<string>;
}

/** An output as an input sees it: what signatures commit to (BIP 143, BIP 341) and what screening reads. */
export interface Prevout {
  script: Uint8Array;
  value: bigint;
}

export interface BitcoinConfig {
  network: 'bitcoin' | 'testnet' | 'regtest';
  feeRate: number;
  simulatedBalanceSats: string;
}

export class SimulatedBitcoin implements BitcoinAdapter {
  readonly network: BitcoinNetwork;
  readonly broadcasts: string[] = [];
  /** Outputs handed out by utxos(), by `txid:vout`: the simulated chain's UTXO set, as far as this process has seen it. */
  private readonly known = new Map<string, Prevout>();

  /**
   * `ledger`: the store where the outputs handed out are recorded, so that another process of the
   * deployment knows them when register-tx spends them (never called inside a transaction of it).
   */
  constructor(
    private readonly config: BitcoinConfig,
    private readonly ledger?: Queryable,
  ) {
    this.network = bitcoinNetwork(config.network);
  }

  feeRate(): number {
    return this.config.feeRate;
  }

  /**
   * Three outputs splitting the address's balance 50/30/20, each in its own funding transaction.
   * The balance is the configured one plus up to as much again, from a hash of the address, so
   * that addresses differ while every address can fund what the configured balance funds. The hash
   * is of the address's normal form: a bech32 address written in upper case has the same outputs,
   * as on a real chain, where they belong to its script.
   */
  async utxos(written: string): Promise<Utxo[]> {
    const script = bitcoinLib.address.toOutputScript(written, this.network);
    const address = normalizeAddress('bitcoin', written);
    const configured = BigInt(this.config.simulatedBalanceSats);
    const balance = configured + (configured * BigInt(sha256(`balance:${address}`).readUInt16BE(0))) / 65_536n;
    const utxos = [50n, 30n, 20n].map((share, index) => {
      const value = (balance * share) / 100n;
      const funding = new bitcoinLib.Transaction();
      funding.version = 2;
      funding.addInput(sha256(`funding:${address}:${index}`), 0);
      funding.addOutput(script, value);
      return { txid: funding.getId(), vout: 0, value, transactionHex: funding.toHex() };
    });
    const unrecorded = utxos.filter(({ txid, vout }) => !this.known.has(`${txid}:${vout}`));
    for (const { txid, vout, value } of unrecorded) {
      await this.ledger?.query(
        'INSERT INTO simulated_bitcoin_outputs (txid, vout, script, value) VALUES ($1, $2, $3, $4) ON CONFLICT (txid, vout) DO NOTHING',
        [txid, vout, Buffer.from(script).toString('hex'), value.toString()],
      );
      this.known.set(`${txid}:${vout}`, { script, value });
    }
    return utxos;
  }

  async prevout(txid: string, vout: number): Promise<Prevout | undefined> {
    const known = this.known.get(`${txid}:${vout}`);
    if (known || !this.ledger) return known;
    const [row] = await this.ledger.query<{ script: string; value: string }>(
      'SELECT script, value::text AS value FROM simulated_bitcoin_outputs WHERE txid = $1 AND vout = $2',
      [txid, vout],
    );
    if (!row) return undefined;
    const prevout = { script: Uint8Array.from(Buffer.from(row.script, 'hex')), value: BigInt(row.value) };
    this.known.set(`${txid}:${vout}`, prevout);
    return prevout;
  }

  async broadcast(transactionHex: string): Promise<string> {
    this.broadcasts.push(transactionHex);
    return bitcoinLib.Transaction.fromHex(transactionHex).getId();
  }
}

/**
 * Deposit addresses: native SegWit addresses at m/0/<index> of the operator's extended public key.
 * create-order derives one inside its transaction, so its cost is time the transaction holds its
 * locks: m/0 is derived once, and the address is the bech32 of the child's key hash (what
 * payments.p2wpkh writes, without its checks of a key the derivation made).
 * Measured (bench/README.md): an address 363-371 → 170-175 µs.
 */
export class DepositAddresses {
  private readonly external: BIP32Interface;

  constructor(
    extendedPublicKey: string,
    private readonly network: BitcoinNetwork,
  ) {
    this.external = bip32.fromBase58(extendedPublicKey, network).derive(0);
  }

  at(index: number): string {
    return bitcoinLib.address.toBech32(this.external.derive(index).identifier, 0, this.network.bech32);
  }
}

/** Rough virtual sizes of P2WPKH spends, enough to price a fee. */
const vbytes = { overhead: 11, input: 68, output: 31, opReturn: 43 };
const dustLimit = 546n;

export interface PaymentPlan {
  psbtHex: string;
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
  const feeFor = (inputs: number) =>
    BigInt(Math.ceil((vbytes.overhead + vbytes.input * inputs + vbytes.output * 2 + vbytes.opReturn) * feeRate));
  for (const utxo of candidates) {
    if (total >= amount + feeFor(chosen.length)) break;
    chosen.push(utxo);
    total += utxo.value;
  }
  const fee = feeFor(chosen.length);
  if (total < amount + fee)
    throw new InsufficientFunds(
      amount + feeFor(candidates.length),
      candidates.reduce((sum, utxo) => sum + utxo.value, 0n),
    );

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
  return { psbtHex: psbt.toHex() };
}

/** The most the address can pay an onramp: all its UTXOs, minus the fee of spending them. */
export function maxSpendable(utxos: Utxo[], feeRate: number): bigint {
  const balance = utxos.reduce((sum, utxo) => sum + utxo.value, 0n);
  const fee = BigInt(Math.ceil((vbytes.overhead + vbytes.input * utxos.length + vbytes.output + vbytes.opReturn) * feeRate));
  return balance > fee ? balance - fee : 0n;
}

/** What register-tx needs to know about a raw payment, before its inputs are looked up. */
export interface ParsedPayment {
  transaction: bitcoinLib.Transaction;
  txid: string;
  /** Sats paid to the given address. */
  paid: bigint;
  /** Data of the OP_RETURN outputs, hex. */
  opReturns: string[];
  /** Addresses the transaction pays to. */
  outputAddresses: string[];
}

export function parsePayment(transactionHex: string, depositAddress: string, network: BitcoinNetwork): ParsedPayment {
  const transaction = bitcoinLib.Transaction.fromHex(transactionHex);
  const depositScript = bitcoinLib.address.toOutputScript(depositAddress, network);
  let paid = 0n;
  const opReturns: string[] = [];
  const outputAddresses = new Set<string>();
  for (const output of transaction.outs) {
    if (equalBytes(output.script, depositScript)) paid += output.value;
    if (output.script[0] === bitcoinLib.opcodes.OP_RETURN) {
      const data = (bitcoinLib.script.decompile(output.script) ?? [])
        .slice(1)
        .filter((chunk): chunk is Uint8Array => chunk instanceof Uint8Array);
      opReturns.push(data.map(toHex).join(''));
      continue;
    }
    const address = addressOf(output.script, network);
    if (address) outputAddresses.add(address);
  }
  return { transaction, txid: transaction.getId(), paid, opReturns, outputAddresses: [...outputAddresses] };
}

/** The address of an output script, when it has one (a non-standard script has none to screen). */
export function addressOf(script: Uint8Array, network: BitcoinNetwork): string | undefined {
  try {
    return bitcoinLib.address.fromOutputScript(script, network);
  } catch {
    return undefined;
  }
}

/**
 * Why a node would refuse the transaction's amounts, as Bitcoin Core checks them (bad-txns-vout-negative,
 * -vout-toolarge, -txouttotal-toolarge, -in-belowout): a negative output, an output or the outputs
 * together above the money supply, outputs worth more than the outputs the inputs spend (`prevouts[i]`
 * for input i). Undefined when they add up.
 */
export function amountProblem(transaction: bitcoinLib.Transaction, prevouts: Prevout[]): { expected: string; actual: string } | undefined {
  const withinSupply = 'outputs within the money supply, 2,100,000,000,000,000 sats';
  let paid = 0n;
  for (const [index, output] of transaction.outs.entries()) {
    if (output.value < 0n) return { expected: 'outputs of zero sats or more', actual: `output ${index} pays ${output.value} sats` };
    if (output.value > largestAmount.bitcoin) return { expected: withinSupply, actual: `output ${index} pays ${output.value} sats` };
    paid += output.value;
  }
  if (paid > largestAmount.bitcoin) return { expected: withinSupply, actual: `the outputs pay ${paid} sats together` };
  const spent = prevouts.reduce((sum, prevout) => sum + prevout.value, 0n);
  if (paid > spent)
    return {
      expected: 'outputs worth no more than the outputs the inputs spend',
      actual: `the outputs pay ${paid} sats, more than the ${spent} the inputs spend`,
    };
  return undefined;
}

/**
 * Checks the signature of every input against the output it spends (`prevouts[i]` for input i).
 * Returns why the first input that does not verify fails, or undefined when all verify. Verified:
 * P2PKH, P2WPKH, P2SH-P2WPKH, P2TR key path, and P2WSH (also nested in P2SH) whose witness script
 * is a single key (P2PK) or bare multisig; any other spend is reported as not verifiable.
 */
export function inputSignatureProblem(transaction: bitcoinLib.Transaction, prevouts: Prevout[]): string | undefined {
  if (transaction.ins.length === 0) return 'the transaction has no inputs';
  for (let index = 0; index < transaction.ins.length; index++) {
    const problem = inputProblem(transaction, index, prevouts);
    if (problem) return `input ${index}: ${problem}`;
  }
  return undefined;
}

function inputProblem(transaction: bitcoinLib.Transaction, index: number, prevouts: Prevout[]): string | undefined {
  const input = transaction.ins[index]!;
  const { script, value } = prevouts[index]!;
  const { payments, crypto } = bitcoinLib;
  const scriptSig = bitcoinLib.script.decompile(input.script) ?? [];
  const witness = input.witness;

  const spendsP2wpkh = (program: Uint8Array) => {
    if (witness.length !== 2 || !equalBytes(crypto.hash160(witness[1]!), program))
      return 'the witness does not hold the public key of the output';
    const scriptCode = payments.p2pkh({ hash: program }).output!;
    return ecdsaProblem(witness[0]!, witness[1]!, (hashType) => transaction.hashForWitnessV0(index, scriptCode, value, hashType));
  };
  const spendsP2wsh = (program: Uint8Array) => {
    const witnessScript = witness[witness.length - 1];
    if (!witnessScript || !equalBytes(crypto.sha256(witnessScript), program)) return 'the witness script does not hash to the output';
    return scriptProblem(witnessScript, witness.slice(0, -1), (hashType) =>
      transaction.hashForWitnessV0(index, witnessScript, value, hashType),
    );
  };

  const type = outputType(script);
  switch (type) {
    case 'p2pkh': {
      const [signature, pubkey] = scriptSig;
      if (scriptSig.length !== 2 || !(signature instanceof Uint8Array) || !(pubkey instanceof Uint8Array))
        return 'the script does not hold a signature and a public key';
      if (!equalBytes(crypto.hash160(pubkey), script.subarray(3, 23))) return 'the public key does not match the output';
      return ecdsaProblem(signature, pubkey, (hashType) => transaction.hashForSignature(index, script, hashType));
    }
    case 'p2wpkh':
      return input.script.length ? 'a native SegWit input has a non-empty script' : spendsP2wpkh(script.subarray(2));
    case 'p2wsh':
      return input.script.length ? 'a native SegWit input has a non-empty script' : spendsP2wsh(script.subarray(2));
    case 'p2sh': {
      const redeem = scriptSig.length === 1 ? scriptSig[0] : undefined;
      if (!(redeem instanceof Uint8Array) || !equalBytes(crypto.hash160(redeem), script.subarray(2, 22)))
        return 'the redeem script does not hash to the output';
      const nested = outputType(redeem);
      if (nested === 'p2wpkh') return spendsP2wpkh(redeem.subarray(2));
      if (nested === 'p2wsh') return spendsP2wsh(redeem.subarray(2));
      return 'only P2SH-wrapped SegWit spends are verified';
    }
    case 'p2tr': {
      const signature = witness.length === 1 ? witness[0]! : undefined;
      if (!signature || (signature.length !== 64 && signature.length !== 65)) return 'only Taproot key-path spends are verified';
      const hashType = signature.length === 65 ? signature[64]! : bitcoinLib.Transaction.SIGHASH_DEFAULT;
      const hash = transaction.hashForWitnessV1(
        index,
        prevouts.map((prevout) => prevout.script),
        prevouts.map((prevout) => prevout.value),
        hashType,
      );
      return ecc.verifySchnorr(hash, script.subarray(2), signature.subarray(0, 64)) ? undefined : 'the Schnorr signature does not verify';
    }
    default:
      return 'the output it spends has no standard script';
  }
}

type OutputType = 'p2pkh' | 'p2sh' | 'p2wpkh' | 'p2wsh' | 'p2tr';

function outputType(script: Uint8Array): OutputType | undefined {
  const { opcodes } = bitcoinLib;
  if (
    script.length === 25 &&
    script[0] === opcodes.OP_DUP &&
    script[1] === opcodes.OP_HASH160 &&
    script[2] === 20 &&
    script[23] === opcodes.OP_EQUALVERIFY &&
    script[24] === opcodes.OP_CHECKSIG
  )
    return 'p2pkh';
  if (script.length === 23 && script[0] === opcodes.OP_HASH160 && script[1] === 20 && script[22] === opcodes.OP_EQUAL) return 'p2sh';
  if (script.length === 22 && script[0] === opcodes.OP_0 && script[1] === 20) return 'p2wpkh';
  if (script.length === 34 && script[0] === opcodes.OP_0 && script[1] === 32) return 'p2wsh';
  if (script.length === 34 && script[0] === opcodes.OP_1 && script[1] === 32) return 'p2tr';
  return undefined;
}

/** A witness script of one key (`<key> OP_CHECKSIG`) or m-of-n multisig, with the stack that spends it. */
function scriptProblem(witnessScript: Uint8Array, stack: Uint8Array[], sighash: (hashType: number) => Uint8Array): string | undefined {
  const { payments } = bitcoinLib;
  const single = attempt(() => payments.p2pk({ output: witnessScript }));
  if (single) return stack.length === 1 ? ecdsaProblem(stack[0]!, single.pubkey!, sighash) : 'a single-key script takes one signature';
  const multisig = attempt(() => payments.p2ms({ output: witnessScript }));
  if (!multisig) return 'only single-key and multisig witness scripts are verified';
  // OP_CHECKMULTISIG pops one extra (empty) item, then matches signatures to keys in order.
  const [dummy, ...signatures] = stack;
  if (dummy?.length !== 0 || signatures.length !== multisig.m)
    return `a ${multisig.m}-of-${multisig.n} script takes an empty item and ${multisig.m} signatures`;
  let key = 0;
  for (const signature of signatures) {
    while (key < multisig.pubkeys!.length && ecdsaProblem(signature, multisig.pubkeys![key]!, sighash)) key++;
    if (key === multisig.pubkeys!.length) return 'a multisig signature does not verify';
    key++;
  }
  return undefined;
}

function ecdsaProblem(encoded: Uint8Array, pubkey: Uint8Array, sighash: (hashType: number) => Uint8Array): string | undefined {
  const decoded = attempt(() => bitcoinLib.script.signature.decode(encoded));
  if (!decoded) return 'the signature is not a DER signature with a sighash type';
  if (!ecc.isPoint(pubkey)) return 'the public key is not a point on secp256k1';
  return ecc.verify(sighash(decoded.hashType), pubkey, decoded.signature) ? undefined : 'the signature does not verify';
}

function attempt<T>(make: () => T): T | undefined {
  try {
    return make();
  } catch {
    return undefined;
  }
}

export const psbtMagicHex = '70736274ff';

const sha256 = (text: string) => createHash('sha256').update(text).digest();
const fromHex = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'));
const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const equalBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, index) => byte === b[index]);
