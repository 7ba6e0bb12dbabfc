/**
 * Rate limits counted across instances: three servers with their counters in one Redis (Debian's
 * redis-server, started here) give a client one budget together; three with the default in-memory
 * counters give it one budget each, which is why a deployment of several instances sets
 * GATEWAY_REDIS_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/index.js';
import { client, testServer } from './helpers.js';
import { findRedis, startRedis, type RedisServer } from './redis-server.js';

const binary = findRedis();
if ('missing' in binary) {
  // CI installs redis-server (scripts/system-deps.sh): there its absence is a failure, not a skip.
  if (process.env.CI) throw new Error(`the shared rate-limit tests cannot run in CI: ${binary.missing}`);
  console.warn(`[server] skipping the shared rate-limit tests: ${binary.missing}`);
}

const rateLimits = { windowSeconds: 60, anonymous: 6, apiKey: 100 };

/** Nine get-routes requests, one after another, spread over the three instances; the statuses in order. */
async function nineRequests(instances: RunningServer[]): Promise<number[]> {
  const statuses: number[] = [];
  for (let index = 0; index < 9; index++) statuses.push((await client(instances[index % 3]!.url).get('/v4/get-routes')).status);
  return statuses;
}

describe.skipIf('missing' in binary)('rate limits across three instances', () => {
  let redis: RedisServer;
  const started: RunningServer[] = [];
  // One after another: a server's start (PGlite's set-up) holds the event loop for seconds on a
  // loaded machine, long enough for another instance's Redis connect timeout (5 s) to fire while
  // its connection waits, which failed the test with "Connection is closed".
  const start = async (redisUrl?: string) => {
    const instances: RunningServer[] = [];
    for (let index = 0; index < 3; index++)
      instances.push(await testServer({ config: { rateLimits: { ...rateLimits, ...(redisUrl ? { redisUrl } : {}) } } }));
    started.push(...instances);
    return instances;
  };
  beforeAll(async () => {
    redis = await startRedis((binary as { bin: string }).bin);
  });
  afterAll(async () => {
    await Promise.all(started.map((instance) => instance.close()));
    await redis?.stop();
  });

  it('counts one budget in Redis: the seventh request of the window is refused, whichever instance gets it', async () => {
    const statuses = await nineRequests(await start(redis.url));
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429, 429]);
  });

  it('counts a budget per instance in memory (the single-process default)', async () => {
    expect(await nineRequests(await start())).toEqual(new Array(9).fill(200));
  });

  it('refuses to start when the configured Redis is unreachable', async () => {
    await expect(testServer({ config: { rateLimits: { ...rateLimits, redisUrl: `${redis.url}.missing` } } })).rejects.toThrow(
      /rate-limit store .* is unreachable/,
    );
  });
});
