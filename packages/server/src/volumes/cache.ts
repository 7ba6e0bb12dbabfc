/**
 * get-quote's early answer to volume limits, from sums kept in memory: each sum is read from the
 * store at most once per `maxAgeMs` of the gateway's clock, and every order this process writes
 * drops them all (orders/events.ts), so this process's own orders count at once and other
 * instances' within `maxAgeMs`. It only answers early: create-order checks the limits again
 * exactly, inside its transaction (volumes/limits.ts).
 */
import { LRUCache } from 'lru-cache';

export class VolumeCache {
  private readonly sums: LRUCache<string, { total: bigint; atMs: number }>;
  /** Bumped by every write: a sum read while an order was written is not kept. */
  private generation = 0;

  constructor(
    private readonly maxAgeMs: number,
    capacity = 10_000,
  ) {
    this.sums = new LRUCache({ max: capacity });
  }

  async sum(key: string, nowMs: number, read: () => Promise<bigint>): Promise<bigint> {
    const cached = this.sums.get(key);
    // A clock moved back (the sandbox's cannot, a host's can) reads again, as an old sum does.
    if (cached && nowMs >= cached.atMs && nowMs - cached.atMs < this.maxAgeMs) return cached.total;
    const started = this.generation;
    const total = await read();
    if (started === this.generation) {
      this.sums.set(key, { total, atMs: nowMs });
    }
    return total;
  }

  /** An order was written: every sum is read again. */
  changed(): void {
    this.generation++;
    this.sums.clear();
  }
}
