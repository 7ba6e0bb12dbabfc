/**
 * The orders this process wrote: whoever writes an order reports it here after the commit and
 * before answering, and what keeps orders in memory subscribes (the view of orders, orders/reads.ts;
 * get-quote's volume sums, volumes/cache.ts), so that the next read sees the write.
 */
export class OrderEvents {
  private readonly listeners: Array<(orderId: string) => void> = [];

  subscribe(listener: (orderId: string) => void): void {
    this.listeners.push(listener);
  }

  /** The order's row was written (committed). */
  changed(orderId: string): void {
    for (const listener of this.listeners) listener(orderId);
  }
}
