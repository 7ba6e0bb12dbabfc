/**
 * Who is calling, and how often they may: the optional API key (`Authorization: Bearer <key>`,
 * exactly 32 characters, unknown or malformed keys refused with 401) and the rate limit
 * (@fastify/rate-limit), lower without a key (counted per IP address) than with one (per key).
 * Beyond it: 429 EXCEEDED_LIMIT with Retry-After.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../config/config.js';
import { apiKeyLength, type ApiKeys } from '../keys/keys.js';
import { GatewayError } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Id of the caller's API key; undefined for keyless requests. */
    apiKeyId: string | undefined;
  }
}

export async function registerAccess(app: FastifyInstance, options: { keys: ApiKeys; limits: GatewayConfig['rateLimits'] }): Promise<void> {
  app.decorateRequest('apiKeyId', undefined);
  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (header === undefined) return;
    const match = /^Bearer (.*)$/i.exec(header);
    if (!match) throw unauthorized('the Authorization header must be "Bearer <API key>"', { expected: 'Bearer <API key>', actual: header.split(' ')[0] ?? '' });
    const key = match[1]!.trim();
    if (key.length !== apiKeyLength) throw unauthorized(`the API key must be exactly ${apiKeyLength} characters`, { expected: String(apiKeyLength), actual: String(key.length) });
    request.apiKeyId = await options.keys.verify(key);
    if (!request.apiKeyId) throw unauthorized('unknown API key', null);
  });

  const { limits } = options;
  await app.register(rateLimit, {
    global: true,
    timeWindow: limits.windowSeconds * 1000,
    max: (request: FastifyRequest) => (request.apiKeyId ? limits.apiKey : limits.anonymous),
    keyGenerator: (request: FastifyRequest) => (request.apiKeyId ? `key:${request.apiKeyId}` : `ip:${request.ip}`),
    addHeadersOnExceeding: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true },
    addHeaders: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true, 'retry-after': true },
    errorResponseBuilder: (_request, context) =>
      new GatewayError('EXCEEDED_LIMIT', `rate limit of ${context.max} requests per ${limits.windowSeconds} seconds exceeded; retry after the Retry-After delay`, { limit: String(context.max) }, 429),
  });
}

const unauthorized = (message: string, details: ConstructorParameters<typeof GatewayError>[2]) => new GatewayError('INVALID_REQUEST', message, details, 401);
