/**
 * An order row as get-order and get-orders report it (GatewayOrderInfoV3): USD values where a price
 * exists, the remaining estimated time, and the status object of its state.
 */
import type { GatewayOrderInfoV3, GatewayOrderStatusV3, GatewayOrderStatusV3Of } from '@swap-gateway/types';
import type { Catalogue } from '../config/catalogue.js';
import { usdString, type PriceSource } from '../quote/prices.js';
import type { OrderRow } from './queries.js';

export class OrderView {
  constructor(
    private readonly catalogue: Catalogue,
    private readonly prices: PriceSource,
  ) {}

  render(order: OrderRow, nowMs: number): GatewayOrderInfoV3 {
    const srcUsd = this.usd(order.src_chain, order.src_token, order.src_amount);
    const dstUsd = this.usd(order.dst_chain, order.dst_token, order.dst_amount);
    const elapsed = Math.floor((nowMs - order.created_ms) / 1000);
    return {
      id: order.id,
      timestamp: Math.floor(order.created_ms / 1000),
      srcInfo: {
        amount: order.src_amount,
        chain: order.src_chain,
        token: order.src_token,
        txHash: order.src_tx_hash ?? '',
        ...(srcUsd ? { usd: srcUsd } : {}),
      },
      dstInfo: { amount: order.dst_amount, chain: order.dst_chain, token: order.dst_token, ...(dstUsd ? { usd: dstUsd } : {}) },
      status: this.status(order),
      ...(order.deposit_address ? { depositAddress: order.deposit_address } : {}),
      estimatedTimeInSecs: order.status === 'inProgress' ? Math.max(0, order.estimated_time_secs - elapsed) : 0,
    };
  }

  private status(order: OrderRow): GatewayOrderStatusV3 {
    const outcome = order.outcome;
    switch (order.status) {
      case 'inProgress': {
        const usd = this.usd(order.dst_chain, order.dst_token, order.dst_amount);
        const pending =
          order.route === 'offramp' && order.payout_txid
            ? { txid: order.payout_txid, amount: order.dst_amount, ...(usd ? { usd } : {}) }
            : null;
        return { inProgress: { pending_btc_payment: pending, refund_tx: null } };
      }
      case 'success':
        return { success: { received_tokens: outcome && 'transfers' in outcome ? outcome.transfers : [] } };
      case 'refunded':
        return { refunded: { refunded_tokens: outcome && 'transfers' in outcome ? outcome.transfers : [] } };
      case 'failed':
        // The stored payload is the sandbox's `{ reason, message }`, an instance of the document's open object.
        return { failed: outcome && 'failed' in outcome ? (outcome.failed as GatewayOrderStatusV3Of<'failed'>) : {} };
    }
  }

  usd(chain: string, address: string, amount: string): string | undefined {
    const token = this.catalogue.token(chain, address);
    return token ? usdString(this.prices, token, BigInt(amount)) : undefined;
  }
}
