/**
 * Who is calling, and how often they may: the optional API key (`Authorization: Bearer <key>`,
 * exactly 32 characters, unknown or malformed keys refused with 401) and the rate limit
 * (@fastify/rate-limit), lower without a key (counted per IP address) than with one (per key).
 * Beyond it: 429 EXCEEDED_LIMIT with Retry-After.
 *
 * A presented key is checked before the request is counted, so that a valid key is counted against
 * its own budget from its first request, whatever keyless traffic from its address has spent. A key
 * this process verified in the last minute costs nothing (ApiKeys remembers it); any other costs a
 * lookup (hashed, compared in constant time: keys/keys.ts), and lookups are counted per IP address
 * before they are made (`rateLimits.keyLookups`), so that bad keys cannot cost a query each without
 * limit. A malformed or unknown key is then counted against its address's keyless budget, and
 * refused with 401 once counted (429 when that budget is spent).
 *
 * The counters live in this process's memory, or in Redis when `rateLimits.redisUrl` is set, so that
 * several instances behind one address count one budget. Redis is checked at start; while it is
 * unreachable later, requests fail closed (DependencyUnavailable: 503 with Retry-After) rather than
 * pass uncounted, and they are served again within about a second of its return.
 */
import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { readApiKey } from '@swap-gateway/openapi';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { ConfigError, type GatewayConfig } from '../config/config.js';
import { DependencyUnavailable, type ErrorDetails } from '../errors.js';
import type { ApiKeys } from '../keys/keys.js';
import type { Log } from '../log.js';
import { clientId } from './client.js';
import { type ApiFailure, rateLimited, unauthorized } from './failures.js';

declare module 'fastify' {
  interface FastifyInstance {
    access: Access;
  }
  interface FastifyRequest {
    /** Id of the caller's verified API key; undefined for keyless requests and refused keys. */
    apiKeyId: string | undefined;
    /** Why the presented key is refused: answered once the rate limit has counted the request. */
    keyRefusal: ApiFailure | undefined;
  }
}

export interface Access {
  /** For a handler that runs the rate limit itself (the 404 handler), after it: refuses a malformed or unknown key. */
  refuseBadKey(request: FastifyRequest): Promise<void>;
  /** Whether requests can be counted now (always in memory; while Redis answers): the health check's report. */
  rateLimitStore(): 'ok' | 'unavailable';
}

/**
 * Unencapsulated (fastify-plugin): its hooks, the rate limit's and `app.access` belong to every
 * route of the app, the document's, the sandbox's and the 404 handler.
 */
export const accessPlugin = fp<{ keys: ApiKeys; limits: GatewayConfig['rateLimits']; log: Log }>(
  async (app, { keys, limits, log }) => {
    app.decorateRequest('apiKeyId', undefined);
    app.decorateRequest('keyRefusal', undefined);

    const timeWindow = limits.windowSeconds * 1000;
    const redis = limits.redisUrl ? await connectRedis(limits.redisUrl, log) : undefined;
    if (redis) app.addHook('onClose', async () => redis.disconnect());
    await app.register(rateLimit, {
      global: true,
      ...(redis ? { store: redisCounters(redis, timeWindow), skipOnError: false } : {}),
      timeWindow,
      max: (request: FastifyRequest) => (request.apiKeyId ? limits.apiKey : limits.anonymous),
      keyGenerator: clientId,
      // Only the Retry-After of a 429 is documented; the x-ratelimit-* headers are part of no contract.
      addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
      addHeaders: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false, 'retry-after': true },
      errorResponseBuilder: (_request, context) => rateLimited(context.max, limits.windowSeconds),
    });
    const countLookup = app.createRateLimit({
      keyGenerator: (request: FastifyRequest) => `key-lookup:${request.ip}`,
      max: limits.keyLookups,
      timeWindow,
    });

    const identify = async (request: FastifyRequest, key: string) => {
      const lookups = await countLookup(request);
      if (!lookups.isAllowed && lookups.isExceeded) throw rateLimited(limits.keyLookups, limits.windowSeconds, lookups.ttlInSeconds);
      request.apiKeyId = await keys.verify(key);
      if (!request.apiKeyId) request.keyRefusal = unauthorized('unknown API key', null);
    };
    // Instance-level onRequest hooks run before the route-level one the rate limit adds, so the key
    // decides the budget.
    app.addHook('onRequest', async (request) => {
      const header = request.headers.authorization;
      // Routes without a rate limit (the health check) need no caller.
      if (header === undefined || request.routeOptions.config?.rateLimit === false) return;
      const read = readApiKey(header);
      if (!('key' in read)) {
        request.keyRefusal = unauthorized(read.refusal.error, read.refusal.details as ErrorDetails);
        return;
      }
      // A key verified in the last minute is neither looked up nor counted as a lookup.
      request.apiKeyId = keys.cached(read.key);
      if (!request.apiKeyId) await identify(request, read.key);
    });
    // After every onRequest hook, so after the count. The 404 handler counts in its preHandler and
    // refuses after it (refuseBadKey).
    app.addHook('preParsing', (request, _reply, _payload, done) => {
      if (request.keyRefusal && !request.is404) return done(request.keyRefusal);
      done();
    });

    app.decorate<Access>('access', {
      async refuseBadKey(request) {
        if (request.keyRefusal) throw request.keyRefusal;
      },
      rateLimitStore: () => (!redis || redis.status === 'ready' ? 'ok' : 'unavailable'),
    });
  },
  { name: 'gateway-access', fastify: '5.x' },
);

async function connectRedis(url: string, log: Log): Promise<Redis> {
  const redis = new Redis(url, {
    connectTimeout: 5000,
    lazyConnect: true,
    // While Redis is unreachable a count fails at once (503) rather than wait in a queue for it,
    // and the client tries to reconnect every second at most, so that requests are served again
    // within about a second of its return.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
    // A Redis that holds the connection but stops answering fails the request too.
    commandTimeout: 2000,
  });
  // Each reconnection attempt fails with an error event: one line when the outage starts, one when it
  // ends. Before the server starts, a failure is start-up's refusal (below), said there.
  let started = false;
  let reachable = true;
  redis.on('error', (error) => {
    if (!started || !reachable) return;
    reachable = false;
    log.error({ err: error }, 'the rate-limit store is unreachable: requests get 503 until it is back');
  });
  redis.on('ready', () => {
    if (reachable) return;
    reachable = true;
    log.info('the rate-limit store is reachable again');
  });
  try {
    await redis.connect();
    await redis.ping();
    started = true;
  } catch (error) {
    redis.disconnect();
    // A deployment the server cannot run with, said in one line as a configuration mistake is.
    throw new ConfigError(`the rate-limit store at ${url} is unreachable: ${(error as Error).message}`);
  }
  return redis;
}

/** One count: INCR, its window started by the first (the counting @fastify/rate-limit's own Redis store does). */
const countScript = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  return { current, tonumber(ARGV[1]) }
end
return { current, redis.call('PTTL', KEYS[1]) }`;

/**
 * The counters in Redis, as a store of @fastify/rate-limit whose failures are DependencyUnavailable,
 * the 503 a client is to retry (the plugin's own Redis store passes the client's error on: 500).
 * Every limit here has the one window, and its keys a prefix of their own (`ip:`, `key:`,
 * `key-lookup:`), so one store serves them all.
 */
function redisCounters(redis: Redis, windowMs: number): FastifyRateLimitStoreCtor {
  redis.defineCommand('gatewayCount', { numberOfKeys: 1, lua: countScript });
  const count = (key: string) =>
    (redis as Redis & { gatewayCount(key: string, windowMs: number): Promise<[number, number]> }).gatewayCount(
      `gateway-rate-limit:${key}`,
      windowMs,
    );
  return class RedisCounters implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void) {
      count(key).then(
        ([current, ttl]) => callback(null, { current, ttl }),
        (error: unknown) => callback(new DependencyUnavailable('rateLimitStore', error)),
      );
    }
    child() {
      return this;
    }
  };
}
