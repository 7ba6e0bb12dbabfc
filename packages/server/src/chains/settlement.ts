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
import type { ChainKind } from '../config/config.js';
import type { OrderRow } from '../orders/queries.js';

/**
 * The lifecycle claims every payout, delivery and refund in the database before calling the
 * adapter, so each call happens once across instances. Only when an instance dies between the call
 * and recording its result is the call made again (after the claim's lease): a real adapter uses
 * the order id as the idempotency key of the transfer.
 */
export interface SettlementAdapter {
  sourceConfirmed(order: OrderRow, nowMs: number): boolean;
  /** No source transaction was seen within the payment window: the order expires. */
  paymentWindowClosed(order: OrderRow, nowMs: number): boolean;
  /** Sends the Bitcoin payout of an offramp; resolves to its txid. */
  sendPayout(order: OrderRow): Promise<string>;
  payoutConfirmed(order: OrderRow, nowMs: number): boolean;
  /** Delivers the output on the destination chain; resolves to the transaction hash. */
  deliver(order: OrderRow, chain: ChainKind): Promise<string>;
  /** Returns the input on the source chain; resolves to the transaction hash. */
  refund(order: OrderRow, chain: ChainKind): Promise<string>;
}

export class SimulatedChains implements SettlementAdapter {
  constructor(
    private readonly delays: { confirmationDelaySeconds: number; payoutDelaySeconds: number; unpaidOrderExpirySeconds: number },
  ) {}

  sourceConfirmed(order: OrderRow, nowMs: number): boolean {
    return order.src_seen_ms !== null && nowMs >= order.src_seen_ms + this.delays.confirmationDelaySeconds * 1000;
  }

  paymentWindowClosed(order: OrderRow, nowMs: number): boolean {
    return order.src_seen_ms === null && nowMs >= order.created_ms + this.delays.unpaidOrderExpirySeconds * 1000;
  }

  async sendPayout(order: OrderRow): Promise<string> {
    return simulatedHash('bitcoin', `payout:${order.id}`);
  }

  payoutConfirmed(order: OrderRow, nowMs: number): boolean {
    return order.payout_sent_ms !== null && nowMs >= order.payout_sent_ms + this.delays.payoutDelaySeconds * 1000;
  }

  async deliver(order: OrderRow, chain: ChainKind): Promise<string> {
    return simulatedHash(chain, `deliver:${order.id}`);
  }

  async refund(order: OrderRow, chain: ChainKind): Promise<string> {
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
