/**
 * Moves orders through their states from what the chain adapters report:
 * inProgress → success (received_tokens); inProgress → failed `{ reason: 'expired' }` when no source
 * transaction is seen within the payment window; and, when the sandbox forces it, failed or refunded
 * (refunded_tokens). An offramp shows its pending Bitcoin payout while the payout confirms.
 * A background loop polls the adapters; the sandbox can also run a pass on demand.
 */
import type { SettlementAdapter } from '../chains/settlement.js';
import { simulatedHash, transactionHashProblem } from '../chains/settlement.js';
import type { Clock } from '../clock.js';
import type { Catalogue } from '../config/catalogue.js';
import { GatewayError, invalidRequest } from '../http/errors.js';
import type { Database } from '../store/database.js';
import { findOrder, markPayoutSent, markSourceSeen, normalizeHash, ordersInProgress, settleOrder, type OrderRow, type Outcome, type SettlementTransfer } from './store.js';
import type { OrderView } from './view.js';

export type ForcedOutcome = 'success' | 'failed' | 'refunded';

export class Lifecycle {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly db: Database,
    private readonly catalogue: Catalogue,
    private readonly chains: SettlementAdapter,
    private readonly view: OrderView,
    private readonly clock: Clock,
  ) {}

  start(intervalMs: number): void {
    if (intervalMs <= 0) return;
    this.timer = setInterval(() => void this.tick().catch(() => undefined), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One pass over the orders in progress. Passes never overlap. */
  tick(): Promise<void> {
    this.running ??= this.pass().finally(() => (this.running = undefined));
    return this.running;
  }

  private async pass(): Promise<void> {
    const now = this.clock.now();
    for (const order of await ordersInProgress(this.db, false)) {
      if (this.chains.paymentWindowClosed(order, now)) {
        await this.settle(order, 'failed', { failed: { reason: 'expired', message: 'no source transaction was seen in time; the reserved liquidity is released' } });
      }
    }
    for (const order of await ordersInProgress(this.db, true)) {
      if (!this.chains.sourceConfirmed(order, now)) continue;
      if (order.route === 'offramp' && !order.payout_txid) {
        await markPayoutSent(this.db, order.id, await this.chains.sendPayout(order), now);
      } else if (order.route !== 'offramp' || this.chains.payoutConfirmed(order, now)) {
        await this.settle(order, 'success', { transfers: [await this.delivery(order)] });
      }
    }
  }

  /** The user sent the source transaction of an offramp or token swap: the indexer sees it now. */
  async sourceSent(orderId: string, txHash?: string): Promise<OrderRow> {
    const order = await this.order(orderId);
    if (order.route === 'onramp') throw conflict('an onramp payment is registered with PATCH /v4/register-tx');
    const kind = this.catalogue.kindOf(order.src_chain)!;
    const malformed = txHash === undefined ? undefined : transactionHashProblem(kind, txHash);
    if (malformed) throw invalidRequest(`txHash is not a ${order.src_chain} transaction hash`, { expected: malformed, actual: txHash! });
    const hash = txHash ? normalizeHash(txHash) : simulatedHash(kind, `source:${order.id}`);
    if (!(await markSourceSeen(this.db, order.id, hash, this.clock.now()))) throw conflict('the order already has a source transaction, or is settled');
    return this.order(orderId);
  }

  async force(orderId: string, outcome: ForcedOutcome, reason?: string): Promise<OrderRow> {
    const order = await this.order(orderId);
    const settled =
      outcome === 'success'
        ? await this.settle(order, 'success', { transfers: [await this.delivery(order)] })
        : outcome === 'refunded'
          ? await this.settle(order, 'refunded', { transfers: [await this.refundTransfer(order)] })
          : await this.settle(order, 'failed', { failed: reason ? { reason } : {} });
    if (!settled) throw conflict(`the order is already ${order.status}`);
    return this.order(orderId);
  }

  private async settle(order: OrderRow, status: 'success' | 'failed' | 'refunded', outcome: Outcome): Promise<boolean> {
    return this.db.transaction((tx) => settleOrder(tx, order, status, outcome, this.clock.now()));
  }

  private async delivery(order: OrderRow): Promise<SettlementTransfer> {
    const txHash = order.route === 'offramp' ? order.payout_txid ?? (await this.chains.sendPayout(order)) : await this.chains.deliver(order, this.catalogue.kindOf(order.dst_chain)!);
    return this.transfer(order.dst_chain, order.dst_token, order.dst_amount, txHash);
  }

  private async refundTransfer(order: OrderRow): Promise<SettlementTransfer> {
    return this.transfer(order.src_chain, order.src_token, order.src_amount, await this.chains.refund(order, this.catalogue.kindOf(order.src_chain)!));
  }

  private transfer(chain: string, token: string, amount: string, txHash: string): SettlementTransfer {
    const usd = this.view.usd(chain, token, amount);
    return { chain, token, amount, txHash, ...(usd ? { usd } : {}) };
  }

  private async order(orderId: string): Promise<OrderRow> {
    const order = await findOrder(this.db, orderId);
    if (!order || order.id !== orderId.toLowerCase()) throw new GatewayError('ORDER_NOT_FOUND', 'no order has this id', null, 404);
    return order;
  }
}

const conflict = (message: string) => new GatewayError('INVALID_REQUEST', message, { message }, 409);
