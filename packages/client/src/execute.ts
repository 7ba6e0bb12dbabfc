/**
 * executeQuote: the whole swap in one call. It creates the order, has the wallet of the source chain
 * sign (and, off Bitcoin, send) what the order asks for, registers an onramp's payment, and follows
 * the order until it is settled. Without a signer it stops after create-order and returns what the
 * user must pay or sign, for an app that shows a QR code and follows the order later.
 *
 * A standalone function rather than a method of the client, so that an app which does not use it
 * does not ship it.
 */
import type { GatewayCreateOrderV3, GatewayOrderInfoV3, GatewayQuoteV4, GatewayTxData } from '@swap-gateway/types';
import type { CallOptions, GatewayClient, WaitForOrderOptions } from './client.js';
import type { BitcoinPayment, BitcoinSigner, Signers } from './signers.js';
import { decodeSolanaTransaction } from './solana.js';
import { registeredTxid, routeOf } from './unions.js';

/** A step of `executeQuote` after create-order, as named in progress events and errors. */
export type ExecutionStep = 'sign' | 'register' | 'send' | 'wait';

/**
 * Progress of `executeQuote`, every event with the order id: `created` (the create-order result),
 * then for an onramp `signed` and `registered` (the txid the gateway broadcast), for an offramp or
 * token swap `sent` (the source transaction's hash), then `status` each time the order changes.
 */
export type ExecutionProgress =
  | { type: 'created'; orderId: string; order: GatewayCreateOrderV3 }
  | { type: 'signed'; orderId: string }
  | { type: 'registered'; orderId: string; txid: string | undefined }
  | { type: 'sent'; orderId: string; txHash: string }
  | { type: 'status'; orderId: string; order: GatewayOrderInfoV3 };

export interface ExecuteQuoteOptions extends CallOptions {
  /** The wallets of the source chains. Without one, `executeQuote` returns a `PaymentRequest`. */
  signer?: Signers | undefined;
  /** Called at every step; an exception it throws after create-order fails the call like any step. */
  onProgress?: ((progress: ExecutionProgress) => void) | undefined;
  /** How to follow the order (interval, timeout); `signal` and `onUpdate` are executeQuote's own. */
  wait?: Omit<WaitForOrderOptions, 'signal' | 'onUpdate'> | undefined;
}

/**
 * What a user without a connected wallet must do for an order: pay the onramp's deposit address
 * (or sign its PSBT, when the quote named a sender), or sign and send the offramp's or token swap's
 * source transaction (`tx`, as create-order returned it). Then follow `orderId` with `waitForOrder`.
 */
export type PaymentRequest =
  | ({ route: 'onramp'; orderId: string; psbtHex: string | null } & BitcoinPayment)
  | { route: 'offramp' | 'tokenSwap'; orderId: string; tx: GatewayTxData };

/** What the wallet returned before a failure: the onramp's signed transaction, or the hash of the source transaction it sent. */
export interface ExecutionPayment {
  signedTransactionHex?: string;
  txHash?: string;
}

/**
 * A step after create-order failed: `orderId` names the order that exists, `step` where it failed,
 * `cause` the error of that step (an API error, a wallet's error, a timeout, the reason of an aborted
 * `signal`, or an exception of `onProgress`). Once the wallet has signed or sent, the step is past
 * `sign` or `send` and the error carries `signedTransactionHex` (register it) or `txHash` (follow the
 * order): only a `sign` or `send` failure without them leaves the order unpaid.
 */
export class OrderExecutionError extends Error {
  override readonly name = 'OrderExecutionError';
  declare readonly signedTransactionHex: string | undefined;
  declare readonly txHash: string | undefined;

  constructor(
    readonly orderId: string,
    readonly step: ExecutionStep,
    cause: unknown,
    { signedTransactionHex, txHash }: ExecutionPayment = {},
  ) {
    super(`order ${orderId}: ${step} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.signedTransactionHex = signedTransactionHex;
    this.txHash = txHash;
  }
}

type Gateway = Pick<GatewayClient, 'createOrder' | 'registerTx' | 'waitForOrder'>;

/** With a signer: creates, pays or sends, registers and follows the order; resolves to it settled. */
export function executeQuote(
  gateway: Gateway,
  quote: GatewayQuoteV4,
  options: ExecuteQuoteOptions & { signer: Signers },
): Promise<GatewayOrderInfoV3>;
/** Without a signer: creates the order and resolves to what the user must pay or sign. */
export function executeQuote(
  gateway: Gateway,
  quote: GatewayQuoteV4,
  options?: Omit<ExecuteQuoteOptions, 'signer' | 'wait'> & { signer?: undefined },
): Promise<PaymentRequest>;
/** With a signer that may be absent: the settled order with one, what the user must pay or sign without. */
export function executeQuote(
  gateway: Gateway,
  quote: GatewayQuoteV4,
  options?: ExecuteQuoteOptions,
): Promise<GatewayOrderInfoV3 | PaymentRequest>;
export async function executeQuote(
  gateway: Gateway,
  quote: GatewayQuoteV4,
  { signer, onProgress, signal, wait }: ExecuteQuoteOptions = {},
): Promise<GatewayOrderInfoV3 | PaymentRequest> {
  const created = await gateway.createOrder(quote, { signal });
  const entry = routeOf(created);
  const orderId = entry.value.order_id;
  let step: ExecutionStep = entry.route === 'onramp' ? 'sign' : 'send';
  const payment: ExecutionPayment = {};
  try {
    onProgress?.({ type: 'created', orderId, order: created });
    const request: PaymentRequest =
      entry.route === 'onramp'
        ? {
            route: 'onramp',
            orderId,
            address: entry.value.address,
            // create-order answers the route of its quote: an onramp order comes from an onramp quote.
            amount: BigInt((quote as Extract<GatewayQuoteV4, { onramp: unknown }>).onramp.inputAmount.amount),
            opReturnData: entry.value.op_return_data ?? null,
            psbtHex: entry.value.psbt_hex ?? null,
          }
        : { route: entry.route, orderId, tx: entry.value.tx };
    if (!signer) return request;

    // As soon as the wallet returns, the step moves on and the error keeps what it returned: an abort
    // or an onProgress that throws from here on must not read as an unpaid order.
    if (request.route === 'onramp') {
      const transactionHex = await signOnramp(signer.bitcoin, request);
      step = 'register';
      payment.signedTransactionHex = transactionHex;
      onProgress?.({ type: 'signed', orderId });
      signal?.throwIfAborted();
      const registered = await gateway.registerTx({ onramp: { order_id: orderId, bitcoin_tx_hex: transactionHex } }, { signal });
      step = 'wait';
      onProgress?.({ type: 'registered', orderId, txid: registeredTxid(registered) });
    } else {
      const txHash = await sendSourceTransaction(signer, request.tx);
      step = 'wait';
      payment.txHash = txHash;
      onProgress?.({ type: 'sent', orderId, txHash });
      signal?.throwIfAborted();
    }
    return await gateway.waitForOrder(orderId, { ...wait, signal, onUpdate: (order) => onProgress?.({ type: 'status', orderId, order }) });
  } catch (cause) {
    throw new OrderExecutionError(orderId, step, cause, payment);
  }
}

/** The raw payment of an onramp: the PSBT signed when there is one and the wallet signs PSBTs, else a payment the wallet builds. */
function signOnramp(
  bitcoin: BitcoinSigner | undefined,
  { psbtHex, address, amount, opReturnData }: PaymentRequest & { route: 'onramp' },
): Promise<string> {
  if (psbtHex && bitcoin?.signPsbt) return bitcoin.signPsbt(psbtHex);
  if (bitcoin?.signPayment) return bitcoin.signPayment({ address, amount, opReturnData });
  throw new TypeError(`the order needs a bitcoin signer${psbtHex ? '' : ' with signPayment'}, and the signer has none`);
}

/** Hands the source transaction, decoded, to the sender of its chain. */
function sendSourceTransaction(signer: Signers, tx: GatewayTxData): Promise<string> {
  switch (tx.type) {
    case 'evm':
      return missing(signer.evm, 'an evm sender').sendTransaction({
        to: tx.to as `0x${string}`,
        data: tx.data as `0x${string}`,
        value: BigInt(tx.value),
        chain: tx.chain,
      });
    case 'tron':
      return missing(signer.tron, 'a tron sender').sendTransaction({
        to: tx.to,
        data: tx.data,
        value: BigInt(tx.value),
        feeLimit: BigInt(tx.feeLimit),
      });
    case 'solana':
      return missing(signer.solana, 'a solana signer').signAndSendTransaction(decodeSolanaTransaction(tx));
  }
}

function missing<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new TypeError(`the order needs ${what}, and the signer has none`);
  return value;
}
