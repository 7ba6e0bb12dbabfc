/**
 * How get-order finds an order. On PostgreSQL every read goes to the database: other instances
 * write to it too. Reads by id that arrive together (those the event loop takes from its sockets in
 * one turn) go as one query, so under load a round trip, its statement and PostgreSQL's snapshot
 * serve several requests; each read still starts after its request arrived, so it sees every write
 * acknowledged before. The embedded store has one process per data directory, so every write passes
 * through this process and a write-through view in memory can answer get-order by id without a
 * round trip into PGlite's single WASM thread: whoever writes an order reports it (`changed`) after
 * the commit and before answering, so a client never reads an order older than an answer it got.
 */
import { LRUCache } from 'lru-cache';
import type { Database } from '../store/database.js';
import { findOrder, findOrdersById, uuidPattern, type OrderRow } from './queries.js';

export interface OrderReads {
  /** An order by id, or by the hash of its source transaction. */
  find(idOrHash: string): Promise<OrderRow | undefined>;
  /** The order's row was written (committed); the next read must see it. */
  changed(orderId: string): void;
}

/** Orders kept in the embedded store's view; the least recently read leaves first (a few hundred bytes each). */
const viewCapacity = 50_000;

export function orderReads(db: Database): OrderReads {
  return db.engine === 'pglite' ? new CachedOrderReads(db, viewCapacity) : new BatchedOrderReads(db);
}

interface WaitingRead {
  resolve(row: OrderRow | undefined): void;
  reject(error: unknown): void;
}

class BatchedOrderReads implements OrderReads {
  /** Reads by id waiting for the next query, by lower-case id (two reads of one order share it). */
  private waiting: Map<string, WaitingRead[]> | undefined;

  constructor(private readonly db: Database) {}

  find(idOrHash: string): Promise<OrderRow | undefined> {
    if (!uuidPattern.test(idOrHash)) return findOrder(this.db, idOrHash);
    if (!this.waiting) {
      this.waiting = new Map();
      // After the event loop's I/O phase: every request it read from its sockets in this turn joins.
      setImmediate(() => this.query());
    }
    const id = idOrHash.toLowerCase();
    return new Promise((resolve, reject) => {
      const reads = this.waiting!.get(id);
      if (reads) reads.push({ resolve, reject });
      else this.waiting!.set(id, [{ resolve, reject }]);
    });
  }

  changed(): void {}

  private async query(): Promise<void> {
    const waiting = this.waiting!;
    this.waiting = undefined;
    try {
      const rows = new Map((await findOrdersById(this.db, [...waiting.keys()])).map((row) => [row.id, row]));
      for (const [id, reads] of waiting) for (const read of reads) read.resolve(rows.get(id));
    } catch (error) {
      for (const reads of waiting.values()) for (const read of reads) read.reject(error);
    }
  }
}

class CachedOrderReads implements OrderReads {
  private readonly rows: LRUCache<string, OrderRow>;
  /** Bumped by every write: a read that started before a write does not fill the view. */
  private generation = 0;

  constructor(
    private readonly db: Database,
    capacity: number,
  ) {
    this.rows = new LRUCache({ max: capacity });
  }

  async find(idOrHash: string): Promise<OrderRow | undefined> {
    const byId = uuidPattern.test(idOrHash);
    const cached = byId ? this.rows.get(idOrHash.toLowerCase()) : undefined;
    if (cached) return cached;
    const started = this.generation;
    const row = await findOrder(this.db, idOrHash);
    // Only reads by id fill the view: which order a hash names can change with another order's write.
    if (row && byId && started === this.generation) this.rows.set(row.id, row);
    return row;
  }

  changed(orderId: string): void {
    this.generation++;
    this.rows.delete(orderId);
  }
}
