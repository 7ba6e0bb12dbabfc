/** Who a request comes from, as the domain counts its clients. */
import type { FastifyRequest } from 'fastify';

/** Its API key when it presented a valid one, else its IP address (the proxy's client address when `trustProxy` says so). */
export const clientOf = (request: FastifyRequest) =>
  request.apiKeyId ? { id: `key:${request.apiKeyId}`, keyed: true } : { id: `ip:${request.ip}`, keyed: false };
