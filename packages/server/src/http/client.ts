/** Who a request comes from, as the domain counts its clients. */
import type { FastifyRequest } from 'fastify';

/** Its API key when it presented a valid one, else its IP address (the proxy's client address when `trustProxy` says so). */
export const clientId = (request: FastifyRequest) => (request.apiKeyId ? `key:${request.apiKeyId}` : `ip:${request.ip}`);

/** The client with whether it is counted by an API key. */
export const clientOf = (request: FastifyRequest) => ({ id: clientId(request), keyed: Boolean(request.apiKeyId) });
