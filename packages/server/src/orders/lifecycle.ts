/**
 * Moves orders through their states from what the chain adapters report:
 * inProgress → success (received_tokens); inProgress → failed `{ reason: 'expired' }` when no source
 * transaction is seen within the payment window; and, when the sandbox forces it, failed or refunded
 * (refunded_tokens). An offramp shows its pending Bitcoin payout while the payout confirms.
 * A background loop polls the adapters; the sandbox can also run a pass on demand.
 *
 * Several instances may run this loop on one database. State changes are conditional updates, so
 * each happens once; every side effect on a chain (payout, delivery, refund) is claimed in the
 * database before the adapter is called (orders/queries.ts claimEffect), so each is performed once;
 * and an order has one final effect (delivery or payout, refund, forced failure), claimed once, so a
 * refund or failure forced while the delivery is under way is refused rather than both happening.
 */
import type { SettlementAdapter, SettlementOrder } from '../chains/settlement.js';
import { simulatedHash, transactionHashProblem } from '../chains/settlement.js';
import type { Clock } from '../clock.js';
import type { Catalogue } from '../config/catalogue.js';
import { invalidRequest, orderNotFound, OrderStateError } from '../errors.js';
import type { Database } from '../store/database.js';
import type { OrderEvents } from './events.js';
import {
  claimEffect,
  findOrder,
  markPayoutSent,
  markSourceSeen,
  normalizeHash,
  ordersInProgress,
  recordEffect,
  settleOrder,
  type OrderRow,
  type Outcome,
  type SettlementTransfer,
} from './queries.js';
import type { OrderView } from './view.js';

export type ForcedOutcome = 'success' | 'failed' | 'refunded';

/** An order's final effect: `fail` is a forced failure, which sends nothing but rules the others out. */
type Effect = 'payout' | 'deliver' | 'refund' | 'fail';

/** A claim without a result older than this is taken to be of an instance that died mid-way. */
const effectLeaseSeconds = 300;

/** How long `catchUp` waits for another instance's effect under way before it looks again, and how often at most. */
const catchUpPauseMs = 100;
const catchUpRounds = 50;

export class Lifecycle {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** Set by a pass that found an effect due claimed by another instance and not done yet. */
  private underWayElsewhere = false;

  constructor(
    private readonly db: Database,
    private readonly catalogue: Catalogue,
    private readonly chains: SettlementAdapter,
    private readonly view: OrderView,
    private readonly clock: Clock,
    private readonly events: OrderEvents,
    /** Brings what the clock reads up to date before a pass (the sandbox's offset, set by any process). */
    private readonly beforePass: () => Promise<void> = () => Promise.resolve(),
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

  /**
   * What is due now has happened when this resolves (the sandbox's clock control): a pass that
   * starts after the call (one under way may have read the clock before it moved), then more while
   * another instance is mid-way through an effect that is due (its payout sent, not yet recorded),
   * for at most five seconds (an instance that died holds its claim for the lease).
   */
  async catchUp(): Promise<void> {
    for (let round = 0; round < catchUpRounds; round++) {
      await this.running;
      this.underWayElsewhere = false;
      await this.tick();
      if (!this.underWayElsewhere) return;
      await new Promise((resolve) => setTimeout(resolve, catchUpPauseMs));
    }
  }

  private async pass(): Promise<void> {
    await this.beforePass();
    const now = this.clock.now();
    for (const order of await ordersInProgress(this.db, false)) {
      if (this.chains.paymentWindowClosed(settlementOrder(order), now)) {
        await this.settle(order, 'failed', {
          failed: { reason: 'expired', message: 'no source transaction was seen in time; the reserved liquidity is released' },
        });
      }
    }
    for (const order of await ordersInProgress(this.db, true)) {
      if (!this.chains.sourceConfirmed(settlementOrder(order), now)) continue;
      if (order.route === 'offramp' && !order.payout_txid) {
        const txid = await this.once(order, 'payout');
        if (txid) {
          await markPayoutSent(this.db, order.id, txid, now);
          this.events.changed(order.id);
        }
      } else if (order.route !== 'offramp' || this.chains.payoutConfirmed(settlementOrder(order), now)) {
        const delivery = await this.delivery(order);
        if (delivery) await this.settle(order, 'success', { transfers: [delivery] });
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
    if (!(await markSourceSeen(this.db, order.id, hash, this.clock.now())))
      throw conflict('the order already has a source transaction, or is settled');
    this.events.changed(order.id);
    return this.order(orderId);
  }

  async force(orderId: string, outcome: ForcedOutcome, reason?: string): Promise<OrderRow> {
    const order = await this.order(orderId);
    if (order.status !== 'inProgress') throw conflict(`the order is already ${order.status}`);
    const transfer =
      outcome === 'success' ? await this.delivery(order) : outcome === 'refunded' ? await this.refundTransfer(order) : undefined;
    if (outcome === 'failed' ? !(await this.failure(order)) : !transfer) {
      throw conflict(
        'the order is being settled another way (its delivery, payout or refund is under way or done); try again to see its status',
      );
    }
    const settled = await this.settle(order, outcome, transfer ? { transfers: [transfer] } : { failed: reason ? { reason } : {} });
    if (!settled) throw conflict(`the order is already ${(await this.order(orderId)).status}`);
    return this.order(orderId);
  }

  private async settle(order: OrderRow, status: 'success' | 'failed' | 'refunded', outcome: Outcome): Promise<boolean> {
    const settled = await this.db.transaction((tx) => settleOrder(tx, order, status, outcome, this.clock.now()));
    if (settled) this.events.changed(order.id);
    return settled;
  }

  /** The output delivered (an offramp: its Bitcoin payout); undefined while another pass or instance delivers it. */
  private async delivery(order: OrderRow): Promise<SettlementTransfer | undefined> {
    const txHash =
      order.route === 'offramp' ? (order.payout_txid ?? (await this.once(order, 'payout'))) : await this.once(order, 'deliver');
    return txHash === undefined ? undefined : this.transfer(order.dst_chain, order.dst_token, order.dst_amount, txHash);
  }

  private async refundTransfer(order: OrderRow): Promise<SettlementTransfer | undefined> {
    const txHash = await this.once(order, 'refund');
    return txHash === undefined ? undefined : this.transfer(order.src_chain, order.src_token, order.src_amount, txHash);
  }

  /** A forced failure takes the order's final-effect claim, so that no delivery or refund starts after it (or is under way). */
  private async failure(order: OrderRow): Promise<boolean> {
    const claim = await claimEffect(this.db, order.id, 'fail', effectLeaseSeconds);
    return claim.claimed || claim.effect === 'fail';
  }

  /**
   * Performs a side effect of the order once across every instance: claimed in the database first,
   * its result recorded after. Resolves to the transaction hash (also when another instance
   * performed it before), or undefined while another pass or instance holds the claim, or when the
   * order's final effect is another one.
   */
  private async once(order: OrderRow, effect: Exclude<Effect, 'fail'>): Promise<string | undefined> {
    const claim = await claimEffect(this.db, order.id, effect, effectLeaseSeconds);
    if (!claim.claimed) {
      if (claim.effect === effect && claim.result == null) this.underWayElsewhere = true;
      return claim.effect === effect ? (claim.result ?? undefined) : undefined;
    }
    const txHash =
      effect === 'payout'
        ? await this.chains.sendPayout(settlementOrder(order))
        : effect === 'deliver'
          ? await this.chains.deliver(settlementOrder(order), this.catalogue.kindOf(order.dst_chain)!)
          : await this.chains.refund(settlementOrder(order), this.catalogue.kindOf(order.src_chain)!);
    await recordEffect(this.db, order.id, effect, txHash);
    return txHash;
  }

  private transfer(chain: string, token: string, amount: string, txHash: string): SettlementTransfer {
    const usd = this.view.usd(chain, token, amount);
    return { chain, token, amount, txHash, ...(usd ? { usd } : {}) };
  }

  private async order(orderId: string): Promise<OrderRow> {
    const order = await findOrder(this.db, orderId);
    if (!order || order.id !== orderId.toLowerCase()) throw orderNotFound('no order has this id');
    return order;
  }
}

const conflict = (message: string) => new OrderStateError(message);

/** The order in the terms the chain adapters take. */
function settlementOrder(row: OrderRow): SettlementOrder {
  return {
    id: row.id,
    route: row.route,
    srcChain: row.src_chain,
    srcToken: row.src_token,
    srcAmount: row.src_amount,
    dstChain: row.dst_chain,
    dstToken: row.dst_token,
    dstAmount: row.dst_amount,
    recipient: row.recipient,
    refundAddress: row.refund_address ?? row.sender,
    createdMs: row.created_ms,
    sourceSeenMs: row.src_seen_ms,
    sourceTxHash: row.src_tx_hash,
    payoutSentMs: row.payout_sent_ms,
  };
}
