/**
 * What the chains report about an order after it is created: the source transaction confirming,
 * the market maker's delivery (or the Bitcoin payout of an offramp), a refund.
 *
 * `SimulatedChains` is deterministic: an order whose source transaction is not seen within
 * `unpaidOrderExpirySeconds` of its creation expires, a source transaction confirms `confirmationDelaySeconds` after
 * it is seen, an offramp payout confirms `payoutDelaySeconds` after it is sent, and every hash is
 * derived from the order id in the format of its chain.
 */
import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import type { ChainKind, RouteKind } from '../config/config.js';

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
 * The lifecycle claims every payout, delivery and refund in the database before calling the
 * adapter, so each call happens once across instances. Only when an instance dies between the call
 * and recording its result is the call made again (after the claim's lease): a real adapter uses
 * the order id as the idempotency key of the transfer.
 */
export interface SettlementAdapter {
  sourceConfirmed(order: SettlementOrder, nowMs: number): boolean;
  /** No source transaction was seen within the payment window: the order expires. */
  paymentWindowClosed(order: SettlementOrder, nowMs: number): boolean;
  /** Sends the Bitcoin payout of an offramp; resolves to its txid. */
  sendPayout(order: SettlementOrder): Promise<string>;
  payoutConfirmed(order: SettlementOrder, nowMs: number): boolean;
  /** Delivers the output on the destination chain; resolves to the transaction hash. */
  deliver(order: SettlementOrder, chain: ChainKind): Promise<string>;
  /** Returns the input on the source chain; resolves to the transaction hash. */
  refund(order: SettlementOrder, chain: ChainKind): Promise<string>;
}

export class SimulatedChains implements SettlementAdapter {
  constructor(
    private readonly delays: { confirmationDelaySeconds: number; payoutDelaySeconds: number; unpaidOrderExpirySeconds: number },
  ) {}

  sourceConfirmed(order: SettlementOrder, nowMs: number): boolean {
    return order.sourceSeenMs !== null && nowMs >= order.sourceSeenMs + this.delays.confirmationDelaySeconds * 1000;
  }

  paymentWindowClosed(order: SettlementOrder, nowMs: number): boolean {
    return order.sourceSeenMs === null && nowMs >= order.createdMs + this.delays.unpaidOrderExpirySeconds * 1000;
  }

  async sendPayout(order: SettlementOrder): Promise<string> {
    return simulatedHash('bitcoin', `payout:${order.id}`);
  }

  payoutConfirmed(order: SettlementOrder, nowMs: number): boolean {
    return order.payoutSentMs !== null && nowMs >= order.payoutSentMs + this.delays.payoutDelaySeconds * 1000;
  }

  async deliver(order: SettlementOrder, chain: ChainKind): Promise<string> {
    return simulatedHash(chain, `deliver:${order.id}`);
  }

  async refund(order: SettlementOrder, chain: ChainKind): Promise<string> {
    return simulatedHash(chain, `refund:${order.id}`);
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
