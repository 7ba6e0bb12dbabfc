/**
 * Who is calling, and how often they may: the optional API key (`Authorization: Bearer <key>`,
 * exactly 32 characters, unknown or malformed keys refused with 401) and the rate limit
 * (@fastify/rate-limit), lower without a key (counted per IP address) than with one (per key).
 * Beyond it: 429 EXCEEDED_LIMIT with Retry-After.
 *
 * The limit is counted before a key is looked up, so that bad keys cannot cost a query each
 * without limit: only a key verified in the last minute (remembered by ApiKeys) is counted
 * against its own budget; any other request, a malformed or unknown key included, is counted
 * against its IP address's keyless budget, and only then is its key checked.
 *
 * The counters live in this process's memory, or in Redis when `rateLimits.redisUrl` is set, so that
 * several instances behind one address count one budget. Redis is checked at start; if it becomes
 * unreachable later, requests fail (500) rather than pass uncounted.
 */
import rateLimit from '@fastify/rate-limit';
import { readApiKey } from '@swap-gateway/openapi';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import type { GatewayConfig } from '../config/config.js';
import type { ErrorDetails } from '../errors.js';
import type { ApiKeys } from '../keys/keys.js';
import { rateLimited, unauthorized, type ApiFailure } from './failures.js';

declare module 'fastify' {
  interface FastifyInstance {
    access: Access;
  }
  interface FastifyRequest {
    /** Id of the caller's API key; undefined for keyless requests and keys not verified yet. */
    apiKeyId: string | undefined;
    /** What the Authorization header presents, read before the rate limit and checked after it. */
    presentedKey: { key: string } | { refusal: ApiFailure } | undefined;
  }
}

export interface Access {
  /** Checks the presented key; runs after the rate limit has counted the request. */
  authenticate(request: FastifyRequest): Promise<void>;
}

/**
 * Unencapsulated (fastify-plugin): its hooks, the rate limit's and `app.access` belong to every
 * route of the app, the document's, the sandbox's and the 404 handler.
 */
export const accessPlugin = fp<{ keys: ApiKeys; limits: GatewayConfig['rateLimits'] }>(
  async (app, { keys, limits }) => {
    app.decorateRequest('apiKeyId', undefined);
    app.decorateRequest('presentedKey', undefined);

    // Instance-level onRequest hooks run before the route-level one the rate limit adds. The hooks
    // here are callback-style, not async: a request without a key (most of them) then costs no promise.
    app.addHook('onRequest', (request, _reply, done) => {
      const presented = readAuthorization(request.headers.authorization);
      request.presentedKey = presented;
      if (presented && 'key' in presented) request.apiKeyId = keys.cached(presented.key);
      done();
    });

    const authenticate = async (request: FastifyRequest) => {
      const presented = request.presentedKey;
      if (!presented || request.apiKeyId) return;
      if ('refusal' in presented) throw presented.refusal;
      request.apiKeyId = await keys.verify(presented.key);
      if (!request.apiKeyId) throw unauthorized('unknown API key', null);
    };
    // Unknown paths are rate limited in their handler's preHandler, after this hook: they check the
    // key there (app.ts); routes without a rate limit (the health check) need no caller.
    app.addHook('preParsing', (request, _reply, _payload, done) => {
      if (request.is404 || request.routeOptions.config?.rateLimit === false || !request.presentedKey || request.apiKeyId) return done();
      authenticate(request).then(() => done(), done);
    });

    const redis = limits.redisUrl
      ? await connectRedis(limits.redisUrl, (error) => app.log.error({ err: error }, 'rate-limit store'))
      : undefined;
    if (redis) app.addHook('onClose', async () => void (await redis.quit()));
    await app.register(rateLimit, {
      global: true,
      ...(redis ? { redis, nameSpace: 'gateway-rate-limit:', skipOnError: false } : {}),
      timeWindow: limits.windowSeconds * 1000,
      max: (request: FastifyRequest) => (request.apiKeyId ? limits.apiKey : limits.anonymous),
      keyGenerator: (request: FastifyRequest) => (request.apiKeyId ? `key:${request.apiKeyId}` : `ip:${request.ip}`),
      // Only the Retry-After of a 429 is documented; the x-ratelimit-* headers are part of no contract.
      addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
      addHeaders: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false, 'retry-after': true },
      errorResponseBuilder: (_request, context) => rateLimited(context.max, limits.windowSeconds),
    });
    app.decorate<Access>('access', { authenticate });
  },
  { name: 'gateway-access', fastify: '5.x' },
);

async function connectRedis(url: string, onError: (error: Error) => void): Promise<Redis> {
  // One retry: a request waits on its counter, so an unreachable Redis fails the request soon.
  const redis = new Redis(url, { connectTimeout: 5000, maxRetriesPerRequest: 1, lazyConnect: true });
  redis.on('error', onError);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw new Error(`the rate-limit store at ${url} is unreachable: ${(error as Error).message}`);
  }
  return redis;
}

/** The key the header presents, read by @swap-gateway/openapi's rule (the mock's front reads it alike). */
function readAuthorization(header: string | undefined): FastifyRequest['presentedKey'] {
  if (header === undefined) return undefined;
  const read = readApiKey(header);
  return 'key' in read ? read : { refusal: unauthorized(read.refusal.error, read.refusal.details as ErrorDetails) };
}
