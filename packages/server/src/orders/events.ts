/**
 * The orders this process wrote: whoever writes an order reports it here after the commit and
 * before answering, and what keeps orders in memory subscribes (the view of orders, orders/reads.ts;
 * get-quote's volume sums, volumes/cache.ts), so that the next read sees the write.
 */
import type { OrderRow } from './queries.js';

type Listener = (orderId: string, written?: OrderRow) => void;

export class OrderEvents {
  private readonly listeners: Listener[] = [];

  /** Whether a subscriber keeps the row as written: writers ask the store for it only then. */
  constructor(readonly keepsWritten: boolean) {}

  subscribe(listener: Listener): void {
    this.listeners.push(listener);
  }

  /**
   * The order's row was written (committed); `written` is the row as the statement wrote it, when the
   * writer has it. Called right after the write, nothing awaited in between: the embedded view keeps
   * `written` as current because no other statement can have run meanwhile (orders/reads.ts).
   */
  changed(orderId: string, written?: OrderRow): void {
    for (const listener of this.listeners) listener(orderId, written);
  }
}
