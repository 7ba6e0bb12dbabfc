/**
 * Rate limits counted across instances: three servers with their counters in one Redis (Debian's
 * redis-server, started here) give a client one budget together; three with the default in-memory
 * counters give it one budget each, which is why a deployment of several instances sets
 * GATEWAY_REDIS_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/index.js';
import { type Answer, client, sharedStorePerSuite, testServer } from './helpers.js';
import { findRedis, startRedis, type RedisServer } from './redis-server.js';

const binary = findRedis();
if ('missing' in binary) {
  // CI installs redis-server (scripts/system-deps.sh): there its absence is a failure, not a skip.
  if (process.env.CI) throw new Error(`the shared rate-limit tests cannot run in CI: ${binary.missing}`);
  console.warn(`[server] skipping the shared rate-limit tests: ${binary.missing}`);
}

const rateLimits = { windowSeconds: 60, anonymous: 6, apiKey: 100 };

// One store for every instance of the file, as a deployment's instances share one database: the
// limits are counted in Redis or in each process, never in the store.
const store = sharedStorePerSuite();

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
      instances.push(await testServer({ database: store(), config: { rateLimits: { ...rateLimits, ...(redisUrl ? { redisUrl } : {}) } } }));
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
    await expect(
      testServer({ database: store(), config: { rateLimits: { ...rateLimits, redisUrl: `${redis.url}.missing` } } }),
    ).rejects.toThrow(/rate-limit store .* is unreachable/);
  });
});

/**
 * Redis stopped and started again under load, two instances counting in it: they fail closed while
 * it is down (503 with Retry-After and the error body, never 500, never a request served uncounted),
 * /health says what is down, and both serve again within seconds of its return.
 */
describe.skipIf('missing' in binary)('two instances while Redis stops and comes back', () => {
  let redis: RedisServer;
  const instances: RunningServer[] = [];
  beforeAll(async () => {
    redis = await startRedis((binary as { bin: string }).bin);
    // One after another, as above.
    for (let index = 0; index < 2; index++)
      instances.push(
        await testServer({
          database: store(),
          config: { rateLimits: { windowSeconds: 60, anonymous: 1_000_000, apiKey: 2_000_000, redisUrl: redis.url } },
        }),
      );
  });
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.close()));
    await redis?.stop();
  });

  /** Waits, a check every 20 ms, for what `done` tells; fails naming `what` after 20 s. */
  async function until(what: string, done: () => boolean): Promise<void> {
    for (const started = Date.now(); !done(); await new Promise((resolve) => setTimeout(resolve, 20)))
      if (Date.now() - started > 20_000) throw new Error(`not within 20 s: ${what}`);
  }

  it('answers 503 with Retry-After while it is down, says so in /health, and serves within seconds of its return', async () => {
    const answers: Array<{ instance: number; at: number; status: number }> = [];
    let loaded = true;
    let refusal: Answer | undefined;
    // Four clients per instance, each sending get-routes as soon as the previous answer came.
    const load = instances.flatMap((instance, index) =>
      Array.from({ length: 4 }, async () => {
        while (loaded) {
          const answer = await client(instance.url).get('/v4/get-routes');
          answers.push({ instance: index, at: Date.now(), status: answer.status });
          if (answer.status === 503) refusal ??= answer;
        }
      }),
    );
    const count = (status: number, since: number) => (instance: number) =>
      answers.filter((answer) => answer.instance === instance && answer.status === status && answer.at > since).length;
    const everyInstance = (counted: (instance: number) => number, atLeast: number) => () =>
      instances.every((_, index) => counted(index) >= atLeast);
    try {
      await until('20 answers 200 from each instance', everyInstance(count(200, 0), 20));

      await redis.kill();
      const stopped = Date.now();
      await until('20 answers 503 from each instance', everyInstance(count(503, stopped), 20));
      expect(refusal).toMatchObject({
        status: 503,
        body: {
          code: 'INTERNAL_ERROR',
          error: "the gateway's rate-limit store is unreachable; nothing was done, try again after Retry-After seconds",
          details: null,
        },
      });
      expect(refusal!.headers.get('retry-after')).toBe('2');
      for (const instance of instances)
        expect(await client(instance.url).get('/health')).toMatchObject({
          status: 503,
          body: { status: 'unavailable', dependencies: { database: 'ok', rateLimitStore: 'unavailable' } },
        });
      // Once an instance refused, it served nothing uncounted until Redis was back.
      const restarted = Date.now();
      for (const [index] of instances.entries()) {
        const firstRefusal = answers.find((answer) => answer.instance === index && answer.status === 503)!.at;
        expect(
          answers.filter(
            (answer) => answer.instance === index && answer.at > firstRefusal && answer.at < restarted && answer.status !== 503,
          ),
        ).toEqual([]);
      }

      await redis.restart();
      const back = Date.now();
      await until('an answer 200 from each instance after Redis is back', everyInstance(count(200, back), 1));
      for (const [index] of instances.entries())
        expect(answers.find((answer) => answer.instance === index && answer.status === 200 && answer.at > back)!.at - back).toBeLessThan(
          5000,
        );
    } finally {
      loaded = false;
      await Promise.all(load);
    }
    // Nothing but served and refused-for-a-moment: no 500 at any time.
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([200, 503]));
    for (const instance of instances) expect((await client(instance.url).get('/health')).body).toMatchObject({ status: 'ok' });
  });
});
