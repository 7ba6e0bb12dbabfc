import { describe, expect, it } from 'vitest';
import { VolumeCache } from '../src/volumes/cache.js';

describe('VolumeCache', () => {
  const counting = () => {
    let reads = 0;
    return { read: async () => BigInt(++reads), reads: () => reads };
  };

  it('reads a sum once per age of the clock, per key', async () => {
    const cache = new VolumeCache(1000);
    const source = counting();
    expect(await cache.sum('a', 5000, source.read)).toBe(1n);
    expect(await cache.sum('a', 5999, source.read)).toBe(1n);
    expect(await cache.sum('b', 5999, source.read)).toBe(2n);
    expect(await cache.sum('a', 6000, source.read)).toBe(3n);
    // A clock moved back reads again.
    expect(await cache.sum('a', 4000, source.read)).toBe(4n);
    expect(source.reads()).toBe(4);
  });

  it('drops every sum when an order is written, and keeps no sum read while one was', async () => {
    const cache = new VolumeCache(1000);
    const source = counting();
    await cache.sum('a', 0, source.read);
    cache.changed();
    expect(await cache.sum('a', 1, source.read)).toBe(2n);
    const racing = cache.sum('b', 1, async () => {
      cache.changed();
      return 10n;
    });
    expect(await racing).toBe(10n);
    expect(await cache.sum('b', 2, source.read)).toBe(3n);
  });

  it('keeps at most its capacity, the least recently asked leaving first', async () => {
    const cache = new VolumeCache(1000, 2);
    const source = counting();
    for (const key of ['a', 'b']) await cache.sum(key, 0, source.read);
    expect(await cache.sum('a', 0, source.read)).toBe(1n);
    // A third sum pushes out b, asked for less recently than a.
    expect(await cache.sum('c', 0, source.read)).toBe(3n);
    expect(await cache.sum('a', 0, source.read)).toBe(1n);
    expect(await cache.sum('b', 0, source.read)).toBe(4n);
  });
});
