/**
 * How get-order finds an order by id: from a view in memory of the orders read before, kept as
 * fresh as the store. A client never reads an order older than an answer it got, from this instance
 * or another.
 *
 * The embedded store has one process per data directory, so every write passes through this
 * process: whoever writes an order reports it (`changed`) after the commit and before answering,
 * and the view keeps the row as written (drops the order when the writer has no row).
 *
 * On PostgreSQL other instances write too. Every update of an order notifies its id (migration
 * 006), and each instance listens on a connection of its own (store/database.ts) and drops what the
 * notifications name; a connection is used once a notification sent through the pool has reached
 * it (a pooler in transaction mode would LISTEN and deliver nothing). The reads of two turns of the
 * event loop then go to that connection as one query, for the orders not in the view, or as an
 * empty query when it holds them all; its answer comes after every notification of a commit
 * acknowledged before the reads arrived (ListeningConnection), so what the view still holds then is
 * current. A settled order never changes again, so one kept is answered without a query. While the
 * listening connection is down, nothing is kept and every read goes to the pool.
 */
import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Database, ListeningConnection } from '../store/database.js';
import { findOrder, findOrdersById, uuidPattern, type OrderRow } from './queries.js';

export interface OrderReads {
  /** An order by id, or by the hash of its source transaction. */
  find(idOrHash: string): Promise<OrderRow | undefined>;
  /** The order's row was written (committed), as `written` when the writer has it; the next read must see it. */
  changed(orderId: string, written?: OrderRow): void;
  /** Whether `changed` keeps the row as written. */
  readonly keepsWritten: boolean;
  close(): Promise<void>;
}

/** Orders kept in a view; the least recently read leaves first (a few hundred bytes each). */
const viewCapacity = 50_000;

/** The channel migration 006's trigger notifies with the id of every order updated. */
const orderChangesChannel = 'gateway_order_changed';

/** How long a lost listening connection waits before it is opened again. */
const reconnectMs = 1000;

/** How long a new listening connection may take to receive the notification that checks it. */
const probeTimeoutMs = 5000;

function within(promise: Promise<void>, ms: number, message: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export async function orderReads(db: Database): Promise<OrderReads> {
  if (db.engine === 'pglite') return new EmbeddedOrderReads(db, viewCapacity);
  const reads = new ListeningOrderReads(db, viewCapacity);
  await reads.connect();
  return reads;
}

class EmbeddedOrderReads implements OrderReads {
  readonly keepsWritten = true;
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

  /**
   * The row as written is current: no other process writes, and no statement runs between a write
   * and this call (one at a time, each in a task of its own: store/database.ts). Kept, the polls of
   * the flow's users read no row.
   * Measured (bench/README.md): the embedded flow's get-order p99 33-73 → 9-12 ms.
   */
  changed(orderId: string, written?: OrderRow): void {
    this.generation++;
    if (written) this.rows.set(orderId, written);
    else this.rows.delete(orderId);
  }

  async close(): Promise<void> {}
}

interface WaitingRead {
  id: string;
  resolve(row: OrderRow | undefined): void;
  reject(error: unknown): void;
}

class ListeningOrderReads implements OrderReads {
  /**
   * The row as written is not kept: another instance's later write can be notified before this
   * write's answer arrives, and the view would then hold the older row.
   */
  readonly keepsWritten = false;
  private readonly rows: LRUCache<string, OrderRow>;
  /** Undefined while the listening connection is down: then nothing is kept. */
  private connection: ListeningConnection | undefined;
  /** Reads by id waiting for the next query. */
  private waiting: WaitingRead[] = [];
  private scheduled = false;
  /** A query is on its way: the reads arriving meanwhile wait for the next. */
  private reading = false;
  /** Orders changed while the query was on its way: its rows of them may be older than the change. */
  private readonly changedWhileReading = new Set<string>();
  private closed = false;

  constructor(
    private readonly db: Database,
    capacity: number,
  ) {
    this.rows = new LRUCache({ max: capacity });
  }

  /**
   * Opens the listening connection and checks that a notification reaches it; on failure, tries
   * again later (reads go to the pool meanwhile).
   */
  async connect(): Promise<void> {
    let connection: ListeningConnection | undefined;
    const probe = `probe ${randomUUID()}`;
    let heard = () => {};
    const probeHeard = new Promise<void>((resolve) => (heard = resolve));
    try {
      connection = await this.db.listen!(orderChangesChannel, {
        notified: (payload) => (payload === probe ? heard() : this.changed(payload)),
        lost: () => connection && this.lost(connection),
      });
      await this.db.query('SELECT pg_notify($1, $2)', [orderChangesChannel, probe]);
      await within(probeHeard, probeTimeoutMs, 'the listening connection received no notification');
      if (this.closed) return void (await connection.close());
      this.connection = connection;
    } catch {
      await connection?.close().catch(() => undefined);
      this.retry();
    }
  }

  find(idOrHash: string): Promise<OrderRow | undefined> {
    if (!uuidPattern.test(idOrHash)) return findOrder(this.db, idOrHash);
    const id = idOrHash.toLowerCase();
    // A settled order is final (every update of an order is of one in progress): kept, it is current.
    const kept = this.rows.get(id);
    if (kept && kept.status !== 'inProgress') return Promise.resolve(kept);
    return new Promise((resolve, reject) => {
      this.waiting.push({ id, resolve, reject });
      this.schedule();
    });
  }

  changed(orderId: string): void {
    this.rows.delete(orderId);
    if (this.reading) this.changedWhileReading.add(orderId);
  }

  async close(): Promise<void> {
    this.closed = true;
    const connection = this.connection;
    this.connection = undefined;
    await connection?.close();
  }

  private schedule(): void {
    if (this.scheduled || this.reading || this.waiting.length === 0) return;
    this.scheduled = true;
    // After two turns of the event loop, so that the requests read from the sockets meanwhile share
    // one round trip. Measured (bench/README.md): two workers' get-orders/s 19,000-24,000 → 27,000-33,000.
    setImmediate(() => setImmediate(() => this.read()));
  }

  private async read(): Promise<void> {
    this.scheduled = false;
    const batch = this.waiting;
    this.waiting = [];
    this.reading = true;
    try {
      const connection = this.connection;
      if (connection) {
        try {
          return await this.readListening(connection, batch);
        } catch {
          // The listening connection failed under the query: it is opened again, and the pool answers.
          this.lost(connection);
        }
      }
      try {
        const ids = [...new Set(batch.map((read) => read.id))];
        const rows = new Map((await findOrdersById(this.db, ids)).map((row) => [row.id, row]));
        for (const read of batch) read.resolve(rows.get(read.id));
      } catch (error) {
        for (const read of batch) read.reject(error);
      }
    } finally {
      this.reading = false;
      this.schedule();
    }
  }

  private async readListening(connection: ListeningConnection, batch: WaitingRead[]): Promise<void> {
    const missing = new Set(batch.filter((read) => !this.rows.has(read.id)).map((read) => read.id));
    this.changedWhileReading.clear();
    const rows = new Map<string, OrderRow>();
    // With nothing to read, the round trip alone: an empty query, which PostgreSQL neither plans nor runs.
    if (missing.size === 0) await connection.barrier();
    else for (const row of await findOrdersById(connection, [...missing])) rows.set(row.id, row);
    // Every change acknowledged before these reads arrived has been notified by now.
    const current = connection === this.connection;
    if (current) for (const [id, row] of rows) if (!this.changedWhileReading.has(id)) this.rows.set(id, row);
    for (const read of batch) {
      if (missing.has(read.id)) read.resolve(rows.get(read.id));
      // Kept when the query was sent: current unless a change dropped it since, then the next query reads it.
      else if (current && this.rows.has(read.id)) read.resolve(this.rows.get(read.id));
      else this.waiting.push(read);
    }
  }

  private lost(connection: ListeningConnection): void {
    if (this.connection !== connection) return;
    this.connection = undefined;
    this.rows.clear();
    connection.close().catch(() => undefined);
    this.retry();
  }

  private retry(): void {
    if (!this.closed) setTimeout(() => void this.connect(), reconnectMs).unref();
  }
}
