/**
 * How get-order finds an order. On PostgreSQL every read goes to the database: other instances
 * write to it too. The embedded store has one process per data directory, so every write passes
 * through this process and a write-through view in memory can answer get-order by id without a
 * round trip into PGlite's single WASM thread: whoever writes an order reports it (`changed`) after
 * the commit and before answering, so a client never reads an order older than an answer it got.
 */
import type { Database } from '../store/database.js';
import { findOrder, type OrderRow } from './queries.js';

export interface OrderReads {
  /** An order by id, or by the hash of its source transaction. */
  find(idOrHash: string): Promise<OrderRow | undefined>;
  /** The order's row was written (committed); the next read must see it. */
  changed(orderId: string): void;
}

/** Orders kept in the embedded store's view; the oldest read leaves first (a few hundred bytes each). */
const viewCapacity = 50_000;

export function orderReads(db: Database): OrderReads {
  return db.engine === 'pglite'
    ? new CachedOrderReads(db, viewCapacity)
    : { find: (idOrHash) => findOrder(db, idOrHash), changed: () => undefined };
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

class CachedOrderReads implements OrderReads {
  private readonly rows = new Map<string, OrderRow>();
  /** Bumped by every write: a read that started before a write does not fill the view. */
  private generation = 0;

  constructor(
    private readonly db: Database,
    private readonly capacity: number,
  ) {}

  async find(idOrHash: string): Promise<OrderRow | undefined> {
    const byId = uuidPattern.test(idOrHash);
    const cached = byId ? this.rows.get(idOrHash.toLowerCase()) : undefined;
    if (cached) return cached;
    const started = this.generation;
    const row = await findOrder(this.db, idOrHash);
    // Only reads by id fill the view: which order a hash names can change with another order's write.
    if (row && byId && started === this.generation) this.remember(row);
    return row;
  }

  changed(orderId: string): void {
    this.generation++;
    this.rows.delete(orderId);
  }

  private remember(row: OrderRow): void {
    // Oldest first out: a Map iterates in insertion order.
    if (this.rows.size >= this.capacity) this.rows.delete(this.rows.keys().next().value!);
    this.rows.set(row.id, row);
  }
}
