/**
 * The sandbox's state: the clock's offset, the faults still to inject, the tokens' USD prices and
 * their random walk. It lives in the store (one row), so that every process of a deployment on one
 * PostgreSQL answers alike whichever of them got the control call.
 *
 * Every change is a transaction on the row (locked, so two processes' changes queue), and the
 * process that made it applies it at once. On the embedded store that is all: one process owns the
 * data directory, so every change passes through it. On PostgreSQL another process may have changed
 * the row: `refresh()` reads it, and resolves only after a read that was sent after the call, so a
 * request that awaits it sees every control call acknowledged before it arrived. Reads of requests
 * arriving together share one query.
 */
import type { PriceWalk } from '../config/config.js';
import type { Database, Queryable } from '../store/database.js';

export interface SandboxPrice {
  /** USD price of one whole token, a decimal string. */
  usd: string;
  /** The price the walk wanders around: the configured one, or the one last set by the control. */
  base: string;
  /** The configured price when this entry was made: a changed configuration replaces the entry. */
  configured: string;
}

export interface SandboxSnapshot {
  /** Bumped by every change. */
  version: number;
  clockOffsetMs: number;
  /** The next API requests that fail inside the service. */
  faults: number;
  /** By `chain:address` (address lower-cased). */
  prices: Record<string, SandboxPrice>;
  /** Bumped by every change of a price: quotes computed at an earlier one are not used again (quote/memo.ts). */
  pricesRevision: number;
  walk: PriceWalk | null;
  /** The configuration's walk (JSON) when `walk` was last taken from it: a changed configuration replaces `walk`. */
  walkConfigured: string;
  /** When the walk last stepped (real time, ms). */
  walkedAtMs: number;
}

export type SandboxValues = Omit<SandboxSnapshot, 'version'>;

const initial: SandboxValues = {
  clockOffsetMs: 0,
  faults: 0,
  prices: {},
  pricesRevision: 0,
  walk: null,
  walkConfigured: '',
  walkedAtMs: 0,
};

interface Waiting {
  resolve(): void;
  reject(error: unknown): void;
}

export class SandboxState {
  private snapshot: SandboxSnapshot;
  private waiting: Waiting[] = [];
  private scheduled = false;
  private reading = false;

  private constructor(
    private readonly db: Database,
    snapshot: SandboxSnapshot,
  ) {
    this.snapshot = snapshot;
  }

  /** Opens the state (empty when the store has none), brought up to date with the configuration by `reconcile`. */
  static async open(db: Database, reconcile: (values: SandboxValues) => SandboxValues | undefined): Promise<SandboxState> {
    await db.query('INSERT INTO sandbox_state (id, version, state) VALUES (1, 0, $1) ON CONFLICT (id) DO NOTHING', [
      JSON.stringify(initial),
    ]);
    const state = new SandboxState(db, { version: 0, ...initial });
    await state.update(reconcile);
    return state;
  }

  /** The state as this process last read or wrote it. */
  get current(): SandboxSnapshot {
    return this.snapshot;
  }

  /** Resolves once the state read here is at least as new as every change acknowledged before the call. */
  refresh(): Promise<void> {
    if (this.db.engine === 'pglite') return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.schedule();
    });
  }

  /**
   * Changes the state in one transaction on its row: `change` gets the stored values and returns
   * the new ones, or undefined to leave them. Resolves to the state after it.
   */
  async update(change: (values: SandboxValues) => SandboxValues | undefined): Promise<SandboxSnapshot> {
    const next = await this.db.transaction(async (tx) => {
      const stored = await read(tx, 'SELECT version, state FROM sandbox_state WHERE id = 1 FOR UPDATE');
      const { version, ...values } = stored;
      const changed = change(values);
      if (!changed) return stored;
      await tx.query('UPDATE sandbox_state SET version = $1, state = $2 WHERE id = 1', [version + 1, JSON.stringify(changed)]);
      return { version: version + 1, ...changed };
    });
    this.apply(next);
    return next;
  }

  private apply(snapshot: SandboxSnapshot): void {
    if (snapshot.version > this.snapshot.version) this.snapshot = snapshot;
  }

  private schedule(): void {
    if (this.scheduled || this.reading || this.waiting.length === 0) return;
    this.scheduled = true;
    setImmediate(() => void this.read());
  }

  private async read(): Promise<void> {
    this.scheduled = false;
    const batch = this.waiting;
    this.waiting = [];
    this.reading = true;
    try {
      this.apply(await read(this.db, 'SELECT version, state FROM sandbox_state WHERE id = 1'));
      for (const waiting of batch) waiting.resolve();
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    } finally {
      this.reading = false;
      this.schedule();
    }
  }
}

async function read(db: Queryable, sql: string): Promise<SandboxSnapshot> {
  const [row] = await db.query<{ version: string | number; state: SandboxValues | string }>(sql);
  if (!row) throw new Error('the sandbox state row is missing');
  const values = typeof row.state === 'string' ? (JSON.parse(row.state) as SandboxValues) : row.state;
  return { ...initial, ...values, version: Number(row.version) };
}
