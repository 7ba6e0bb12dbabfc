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
import { randomUUID } from 'node:crypto';
import type { SettlementAdapter, SettlementOrder } from '../chains/settlement.js';
import { simulatedHash, transactionHashProblem } from '../chains/settlement.js';
import type { Clock } from '../clock.js';
import type { Catalogue } from '../config/catalogue.js';
import { invalidRequest, orderNotFound, OrderStateError } from '../errors.js';
import type { Database, Queryable } from '../store/database.js';
import type { OrderEvents } from './events.js';
import type { OrderReads } from './reads.js';
import {
  claimEffect,
  dueOrders,
  keepClaimsAlive,
  normalizeHash,
  recordEffect,
  recordOnce,
  scheduleOrder,
  settleOrder,
  type DueOrder,
  type OrderFacts,
  type OrderRow,
  type Outcome,
  type SettlementTransfer,
} from './queries.js';
import type { OrderView } from './view.js';

export type ForcedOutcome = 'success' | 'failed' | 'refunded';

/** An order's final effect: `fail` is a forced failure, which sends nothing but rules the others out. */
type Effect = 'payout' | 'deliver' | 'refund' | 'fail';

/** How many due orders a pass reads at once; it reads again while batches come full. */
const batchSize = 200;
/** How many orders this instance looks at together: a slow transfer holds one of them, not the pass. */
const concurrentVisits = 32;
/** When a look at an order failed (the database, a chain call), how soon it is looked at again. */
const retryMs = 1000;

/** How long `catchUp` waits for another instance's effect under way before it looks again, and how often at most. */
const catchUpPauseMs = 100;
const catchUpRounds = 50;

export interface LifecycleOptions {
  /**
   * A claim on an effect not kept alive for this long is taken to be of an instance that died
   * mid-way, and is taken over; a live instance renews its claims three times as often.
   */
  effectLeaseSeconds: number;
}

/**
 * The background loop: every `intervalMs`, a pass reads the orders due a look (the agenda, indexed
 * by due time: orders/queries.ts dueOrders) and looks at each: settles it, sends what is due, or
 * writes when the chains may next have news of it (SettlementAdapter.nextCheckMs). Orders not due
 * cost a pass nothing, however many are open.
 */
export class Lifecycle {
  private timer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** The orders this instance is looking at, by id; a pass leaves them out. */
  private readonly visiting = new Map<string, Promise<void>>();
  /** The orders whose effect this instance has claimed and is performing: their claims are kept alive. */
  private readonly performing = new Set<string>();
  /** Set by a visit that found an effect due claimed by another instance and not done yet. */
  private underWayElsewhere = false;
  /** This instance, as the claimant of the effects it performs. */
  private readonly claimant = randomUUID();
  /** How long closing waits for the looks under way before it abandons them (a test of that waits less). */
  stopWaitMs = 5000;

  constructor(
    /** The database of the calls requests make (source-sent, a forced outcome); passes use its background. */
    private readonly db: Database,
    private readonly catalogue: Catalogue,
    private readonly chains: SettlementAdapter,
    private readonly view: OrderView,
    private readonly clock: Clock,
    private readonly events: OrderEvents,
    /** How the sandbox's controls read the order they act on: as get-order reads it. */
    private readonly reads: Pick<OrderReads, 'find'>,
    private readonly options: LifecycleOptions,
    /** Brings what the clock reads up to date before a pass (the sandbox's offset, set by any process). */
    private readonly beforePass: () => Promise<void>,
    /** A pass or a look at an order that failed (the database unreachable, a chain call refused): it is tried again later. */
    private readonly onError: (error: unknown) => void,
  ) {}

  start(intervalMs: number): void {
    if (intervalMs <= 0) return;
    // The looks a pass starts may outlast it: the next pass starts on time and leaves them out.
    this.timer = setInterval(() => void this.startPass().catch(this.onError), intervalMs);
    this.timer.unref();
  }

  /**
   * Stops the loop and waits for the looks under way, at most `stopWaitMs`: a chain call still
   * running then is abandoned, and its claim, no longer renewed, is taken over by another instance
   * (or this one when it starts again) with the same idempotency key.
   */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.looksFinished(), new Promise((resolve) => (timer = setTimeout(resolve, this.stopWaitMs)))]);
    clearTimeout(timer);
    clearInterval(this.heartbeat);
  }

  /** One pass over the orders due, and the looks it started. */
  async tick(): Promise<void> {
    await this.startPass();
    await this.looksFinished();
  }

  /** Reads the orders due and starts looking at them; passes never overlap. */
  private startPass(): Promise<void> {
    this.running ??= this.pass().finally(() => (this.running = undefined));
    return this.running;
  }

  /** Resolves when every look under way here has finished. */
  private async looksFinished(): Promise<void> {
    while (this.visiting.size > 0) await Promise.allSettled([...this.visiting.values()]);
  }

  /**
   * What is due now has happened when this resolves (the sandbox's clock control): a pass that
   * starts after the call (one under way may have read the clock before it moved) and the looks it
   * started, then more while another instance is mid-way through an effect that is due (its payout
   * sent, not yet recorded), for at most five seconds (an instance that died holds its claim for the lease).
   */
  async catchUp(): Promise<void> {
    for (let round = 0; round < catchUpRounds; round++) {
      // Looks started before the clock moved read the old time, and a pass leaves their orders out,
      // also one that started after the clock moved (the loop's): both end first, so that the pass
      // below starts with no look under way and looks at every order due at the new time.
      while (this.running || this.visiting.size > 0) {
        await this.running;
        await this.looksFinished();
      }
      this.underWayElsewhere = false;
      await this.tick();
      if (!this.underWayElsewhere) return;
      await new Promise((resolve) => setTimeout(resolve, catchUpPauseMs));
    }
  }

  private async pass(): Promise<void> {
    await this.beforePass();
    const now = this.clock.now();
    for (let last: DueOrder | undefined; ; ) {
      const due = await dueOrders(this.db.background, now, batchSize, last, [...this.visiting.keys()]);
      last = due.at(-1);
      for (const entry of due) {
        while (this.visiting.size >= concurrentVisits) await Promise.race(this.visiting.values());
        const visit = this.visit(entry.order, now)
          .catch((error: unknown) => {
            this.onError(error);
            return now + retryMs;
          })
          // Later than this pass's now, whatever an adapter answers: the pass reads what is due until none is left.
          .then((nextMs) => (nextMs === undefined ? undefined : scheduleOrder(this.db.background, entry, Math.max(nextMs, now + 1))))
          .catch(this.onError)
          .finally(() => this.visiting.delete(entry.order.id));
        this.visiting.set(entry.order.id, visit);
      }
      if (due.length < batchSize) return;
    }
  }

  /**
   * Looks at one order due: settles it, or does what is due next. Resolves to when it is next due
   * a look, or undefined to leave it as it is: settled (it left the agenda), its payout written with
   * its next look, or due still while another instance performs its effect (the next pass looks
   * again, and `catchUp` waits for it).
   */
  private async visit(order: OrderRow, now: number): Promise<number | undefined> {
    const db = this.db.background;
    const chainOrder = settlementOrder(order);
    const waiting = this.waitingUntil(chainOrder, now);
    if (waiting !== undefined) return waiting;
    if (chainOrder.sourceSeenMs === null) {
      // Only while it is still unpaid: a payment registered since this look read the order (register-tx
      // has answered it) keeps the order, and the look its recording scheduled follows that payment.
      await this.settle(
        db,
        order,
        'failed',
        { failed: { reason: 'expired', message: 'no source transaction was seen in time; the reserved liquidity is released' } },
        true,
      );
      return undefined;
    }
    if (order.route === 'offramp' && !order.payout_txid) {
      const txid = await this.once(db, order, 'payout');
      if (!txid) return undefined;
      // Its next look goes with the payout's write, later than this pass's now (as in pass()).
      const nextMs = Math.max(this.chains.nextCheckMs({ ...chainOrder, payoutSentMs: now }, now), now + 1);
      this.events.changed(order.id, (await recordOnce(db, 'payoutSent', order.id, txid, now, nextMs, this.events.keepsWritten))?.row);
      return undefined;
    }
    if (order.route === 'offramp' && !this.chains.payoutConfirmed(chainOrder, now)) return this.chains.nextCheckMs(chainOrder, now);
    const delivery = await this.delivery(db, order);
    if (!delivery) return undefined;
    await this.settle(db, order, 'success', { transfers: [delivery] });
    return undefined;
  }

  /**
   * When the lifecycle should next look at an order as just written (created, or its source
   * transaction seen): what a look now would write, so that it does not look only to learn that.
   * Now when something is due: its payment window closed, or its source transaction confirmed.
   * Measured (bench/README.md): about 1 ms of the event loop an order, looking only to learn when to look next.
   */
  nextLookMs(order: OrderFacts, now: number): number {
    return this.waitingUntil(settlementOrder(order), now) ?? now;
  }

  /** While an order waits on the chains (for its payment, or its source's confirmations): when they may next have news of it. */
  private waitingUntil(order: SettlementOrder, now: number): number | undefined {
    const waiting = order.sourceSeenMs === null ? !this.chains.paymentWindowClosed(order, now) : !this.chains.sourceConfirmed(order, now);
    return waiting ? this.chains.nextCheckMs(order, now) : undefined;
  }

  /** The user sent the source transaction of an offramp or token swap: the indexer sees it now. */
  async sourceSent(orderId: string, txHash?: string): Promise<OrderRow> {
    const order = await this.order(orderId);
    if (order.route === 'onramp') throw conflict('an onramp payment is registered with PATCH /v4/register-tx');
    const kind = this.catalogue.kindOf(order.src_chain)!;
    const malformed = txHash === undefined ? undefined : transactionHashProblem(kind, txHash);
    if (malformed) throw invalidRequest(`txHash is not a ${order.src_chain} transaction hash`, { expected: malformed, actual: txHash! });
    const hash = txHash ? normalizeHash(txHash) : simulatedHash(kind, `source:${order.id}`);
    const seenMs = this.clock.now();
    const nextLookMs = this.nextLookMs({ ...order, src_tx_hash: hash, src_seen_ms: seenMs }, seenMs);
    // The row as written whatever the view keeps: it is the control's answer.
    const seen = await recordOnce(this.db, 'sourceSeen', order.id, hash, seenMs, nextLookMs, true);
    if (!seen) throw conflict('the order already has a source transaction, or is settled');
    this.events.changed(order.id, seen.row);
    return seen.row!;
  }

  async force(orderId: string, outcome: ForcedOutcome, reason?: string): Promise<OrderRow> {
    const order = await this.order(orderId);
    if (order.status !== 'inProgress') throw conflict(`the order is already ${order.status}`);
    const transfer =
      outcome === 'success' ? await this.delivery(this.db, order) : outcome === 'refunded' ? await this.refundTransfer(order) : undefined;
    if (outcome === 'failed' ? !(await this.failure(order)) : !transfer) {
      throw conflict(
        'the order is being settled another way (its delivery, payout or refund is under way or done); try again to see its status',
      );
    }
    const settled = await this.settle(this.db, order, outcome, transfer ? { transfers: [transfer] } : { failed: reason ? { reason } : {} });
    if (!settled) throw conflict(`the order is already ${(await this.order(orderId)).status}`);
    return this.order(orderId);
  }

  private async settle(
    db: Queryable,
    order: OrderRow,
    status: 'success' | 'failed' | 'refunded',
    outcome: Outcome,
    unpaid = false,
  ): Promise<boolean> {
    const settled = await settleOrder(db, order, status, outcome, this.clock.now(), this.events.keepsWritten, unpaid);
    if (settled) this.events.changed(order.id, settled.row);
    return settled !== undefined;
  }

  /** The output delivered (an offramp: its Bitcoin payout); undefined while another pass or instance delivers it. */
  private async delivery(db: Queryable, order: OrderRow): Promise<SettlementTransfer | undefined> {
    const txHash =
      order.route === 'offramp' ? (order.payout_txid ?? (await this.once(db, order, 'payout'))) : await this.once(db, order, 'deliver');
    return txHash === undefined ? undefined : this.transfer(order.dst_chain, order.dst_token, order.dst_amount, txHash);
  }

  private async refundTransfer(order: OrderRow): Promise<SettlementTransfer | undefined> {
    const txHash = await this.once(this.db, order, 'refund');
    return txHash === undefined ? undefined : this.transfer(order.src_chain, order.src_token, order.src_amount, txHash);
  }

  /** A forced failure takes the order's final-effect claim, so that no delivery or refund starts after it (or is under way). */
  private async failure(order: OrderRow): Promise<boolean> {
    const claim = await claimEffect(this.db, order.id, 'fail', this.claimant, this.options.effectLeaseSeconds);
    return claim.claimed || claim.effect === 'fail';
  }

  /**
   * Performs a side effect of the order once across every instance: claimed in the database first,
   * its result recorded after. Resolves to the transaction hash (also when another instance
   * performed it before), or undefined while another pass or instance holds the claim, or when the
   * order's final effect is another one.
   */
  private async once(db: Queryable, order: OrderRow, effect: Exclude<Effect, 'fail'>): Promise<string | undefined> {
    const claim = await claimEffect(db, order.id, effect, this.claimant, this.options.effectLeaseSeconds);
    if (!claim.claimed) {
      if (claim.effect === effect && claim.result == null) this.underWayElsewhere = true;
      return claim.effect === effect ? (claim.result ?? undefined) : undefined;
    }
    this.performing.add(order.id);
    this.keepClaimsAlive();
    try {
      // The key is the order's effect: an instance that takes over a dead one's claim asks for the same transfer.
      const request = { order: settlementOrder(order), idempotencyKey: `${order.id}:${effect}` };
      const txHash =
        effect === 'payout'
          ? await this.chains.sendPayout(request)
          : effect === 'deliver'
            ? await this.chains.deliver(request, this.catalogue.kindOf(order.dst_chain)!)
            : await this.chains.refund(request, this.catalogue.kindOf(order.src_chain)!);
      await recordEffect(db, order.id, effect, txHash);
      return txHash;
    } finally {
      this.performing.delete(order.id);
    }
  }

  /** While this instance performs effects, it renews their claims a third of a lease apart. */
  private keepClaimsAlive(): void {
    if (this.heartbeat) return;
    this.heartbeat = setInterval(
      () => {
        if (this.performing.size === 0) {
          clearInterval(this.heartbeat);
          this.heartbeat = undefined;
          return;
        }
        keepClaimsAlive(this.db.background, [...this.performing], this.claimant).catch(this.onError);
      },
      (this.options.effectLeaseSeconds * 1000) / 3,
    );
    this.heartbeat.unref();
  }

  private transfer(chain: string, token: string, amount: string, txHash: string): SettlementTransfer {
    const usd = this.view.usd(chain, token, amount);
    return { chain, token, amount, txHash, ...(usd ? { usd } : {}) };
  }

  private async order(orderId: string): Promise<OrderRow> {
    const order = await this.reads.find(orderId);
    if (!order || order.id !== orderId.toLowerCase()) throw orderNotFound('no order has this id');
    return order;
  }
}

const conflict = (message: string) => new OrderStateError(message);

/** The order in the terms the chain adapters take. */
function settlementOrder(row: OrderFacts): SettlementOrder {
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
