/**
 * What the chains report about an order after it is created: the source transaction confirming,
 * the market maker's delivery (or the Bitcoin payout of an offramp), a refund.
 *
 * `SimulatedChains` is deterministic: an order whose source transaction is not seen within
 * `unpaidOrderExpirySeconds` of its creation expires, a source transaction confirms `confirmationDelaySeconds` after
 * it is seen, an offramp payout confirms `payoutDelaySeconds` after it is sent, and every hash is
 * derived from the order id in the format of its chain. Its transfers are recorded in the store by
 * idempotency key, so that every instance sends each one once.
 */
import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import type { ChainKind, RouteKind } from '../config/config.js';
import type { Queryable } from '../store/database.js';

/** An order as the chains are asked about it: the domain's terms, not the store's row. */
export interface SettlementOrder {
  id: string;
  route: RouteKind;
  srcChain: string;
  srcToken: string;
  srcAmount: string;
  dstChain: string;
  dstToken: string;
  dstAmount: string;
  recipient: string;
  /** Who gets a refund: the refund address, else the sender. */
  refundAddress: string | null;
  createdMs: number;
  /** When the source transaction was seen, and its hash; null before. */
  sourceSeenMs: number | null;
  sourceTxHash: string | null;
  /** When an offramp's payout was sent; null before. */
  payoutSentMs: number | null;
}

/**
 * A transfer the lifecycle asks for: the order, and the key that makes it happen once. The
 * lifecycle claims every payout, delivery and refund in the database before calling the adapter, and
 * keeps the claim alive while the call runs; only when its instance dies (or stalls past the claim's
 * lease) does another instance ask again, with the same key. An adapter must make every call with
 * one key one transfer: the first call sends it, a later one answers the first one's hash (a real
 * chain's payment API takes the key as its idempotency key, or the adapter looks the key up in its
 * own record of what it sent before sending).
 */
export interface TransferRequest {
  order: SettlementOrder;
  idempotencyKey: string;
}

export interface SettlementAdapter {
  sourceConfirmed(order: SettlementOrder, nowMs: number): boolean;
  /** No source transaction was seen within the payment window: the order expires. */
  paymentWindowClosed(order: SettlementOrder, nowMs: number): boolean;
  payoutConfirmed(order: SettlementOrder, nowMs: number): boolean;
  /**
   * When the answers above may next change for this order (Unix ms, after `nowMs`): the lifecycle
   * looks at the order again then. When something happens to it (its source transaction is
   * registered, its payout sent), it is asked again with the new facts, and the order is due then.
   * An adapter that polls a chain answers its polling time.
   */
  nextCheckMs(order: SettlementOrder, nowMs: number): number;
  /** Sends the Bitcoin payout of an offramp; resolves to its txid. */
  sendPayout(request: TransferRequest): Promise<string>;
  /** Delivers the output on the destination chain; resolves to the transaction hash. */
  deliver(request: TransferRequest, chain: ChainKind): Promise<string>;
  /** Returns the input on the source chain; resolves to the transaction hash. */
  refund(request: TransferRequest, chain: ChainKind): Promise<string>;
}

export interface SimulatedChainsOptions {
  confirmationDelaySeconds: number;
  payoutDelaySeconds: number;
  unpaidOrderExpirySeconds: number;
  /** How long a transfer takes to send (a real chain's call takes seconds): 0 by default. */
  sendDelayMs?: number;
}

export class SimulatedChains implements SettlementAdapter {
  constructor(
    private readonly options: SimulatedChainsOptions,
    /**
     * Where the transfers are recorded by idempotency key, shared by every instance (the gateway
     * passes its store). Without one nothing is recorded; a key asked again still gets the same
     * hash, which derives from the order.
     */
    private readonly ledger?: Queryable,
  ) {}

  sourceConfirmed(order: SettlementOrder, nowMs: number): boolean {
    return order.sourceSeenMs !== null && nowMs >= order.sourceSeenMs + this.options.confirmationDelaySeconds * 1000;
  }

  paymentWindowClosed(order: SettlementOrder, nowMs: number): boolean {
    return order.sourceSeenMs === null && nowMs >= order.createdMs + this.options.unpaidOrderExpirySeconds * 1000;
  }

  payoutConfirmed(order: SettlementOrder, nowMs: number): boolean {
    return order.payoutSentMs !== null && nowMs >= order.payoutSentMs + this.options.payoutDelaySeconds * 1000;
  }

  nextCheckMs(order: SettlementOrder, nowMs: number): number {
    const at =
      order.sourceSeenMs === null
        ? order.createdMs + this.options.unpaidOrderExpirySeconds * 1000
        : order.payoutSentMs === null
          ? order.sourceSeenMs + this.options.confirmationDelaySeconds * 1000
          : order.payoutSentMs + this.options.payoutDelaySeconds * 1000;
    return Math.max(at, nowMs);
  }

  sendPayout(request: TransferRequest): Promise<string> {
    return this.send(request, simulatedHash('bitcoin', `payout:${request.order.id}`));
  }

  deliver(request: TransferRequest, chain: ChainKind): Promise<string> {
    return this.send(request, simulatedHash(chain, `deliver:${request.order.id}`));
  }

  refund(request: TransferRequest, chain: ChainKind): Promise<string> {
    return this.send(request, simulatedHash(chain, `refund:${request.order.id}`));
  }

  /**
   * One transfer per key: a key asked again counts the attempt and answers the first transfer's
   * hash. The transfer is made first and the answer takes `sendDelayMs`, as a real chain's call
   * does: an instance that dies meanwhile leaves a transfer made that its order does not record.
   */
  private async send({ idempotencyKey }: TransferRequest, txHash: string): Promise<string> {
    const [sent] = this.ledger
      ? await this.ledger.query<{ tx_hash: string }>(
          `INSERT INTO simulated_transfers (idempotency_key, tx_hash) VALUES ($1, $2)
           ON CONFLICT (idempotency_key) DO UPDATE SET attempts = simulated_transfers.attempts + 1 RETURNING tx_hash`,
          [idempotencyKey, txHash],
        )
      : [{ tx_hash: txHash }];
    if (this.options.sendDelayMs) await new Promise((resolve) => setTimeout(resolve, this.options.sendDelayMs));
    return sent!.tx_hash;
  }
}

const hashFormats: Record<ChainKind, { pattern: RegExp; description: string }> = {
  bitcoin: { pattern: /^[0-9a-fA-F]{64}$/, description: '64 hex digits' },
  tron: { pattern: /^[0-9a-fA-F]{64}$/, description: '64 hex digits' },
  evm: { pattern: /^0x[0-9a-fA-F]{64}$/, description: '0x and 64 hex digits' },
  solana: { pattern: /^[1-9A-HJ-NP-Za-km-z]{64,88}$/, description: 'a Base58 signature of 64 bytes' },
};

/** Whether a string is a transaction hash of the chain's kind; the format's description when it is not. */
export function transactionHashProblem(chain: ChainKind, hash: string): string | undefined {
  const format = hashFormats[chain];
  if (!format.pattern.test(hash)) return format.description;
  if (chain === 'solana' && bs58.decode(hash).length !== 64) return format.description;
  return undefined;
}

/** A transaction hash in the format of its chain: hex txid, 0x hash, Tron hex id, or Base58 signature. */
export function simulatedHash(chain: ChainKind, seed: string): string {
  const digest = createHash('sha512').update(seed).digest();
  switch (chain) {
    case 'bitcoin':
    case 'tron':
      return digest.subarray(0, 32).toString('hex');
    case 'evm':
      return `0x${digest.subarray(0, 32).toString('hex')}`;
    case 'solana':
      return bs58.encode(digest);
  }
}
