/**
 * How long a client may take, how many connections one process holds, and who names the client
 * (`server` of the configuration), as Fastify's and Node's options. A request whose headers or body
 * do not arrive in time gets 408 (the clientError answer of app.ts); an idle keep-alive connection
 * is closed after `keepAliveTimeoutMs`, one that never sends a request after `headersTimeoutMs`;
 * connections beyond `maxConnections` are closed as they come, so that idle sockets cannot use up
 * the process's file descriptors, which the store's connections and files need too.
 */
import { acceptAnyHost } from '@swap-gateway/openapi';
import type { FastifyInstance } from 'fastify';
import type { GatewayConfig } from '../config/config.js';
import type { Log } from '../log.js';

export function connectionOptions(server: GatewayConfig['server']) {
  return {
    trustProxy: server.trustProxy,
    keepAliveTimeout: server.keepAliveTimeoutMs,
    requestTimeout: server.requestTimeoutMs,
    http: {
      ...acceptAnyHost,
      headersTimeout: server.headersTimeoutMs,
      // Node looks for requests past their timeouts every 30 s by default, which lets a 10 s timeout
      // run to 40 s; looking every second walks at most maxConnections connections.
      connectionsCheckingInterval: Math.min(1000, server.headersTimeoutMs),
    },
  };
}

/** Node closes a connection beyond `max` at once; the log says so, once a minute at most. */
export function capConnections(app: FastifyInstance, max: number, log: Log): void {
  app.server.maxConnections = max;
  let warned = 0;
  app.server.on('drop', () => {
    if (Date.now() - warned < 60_000) return;
    warned = Date.now();
    log.warn(`connections refused: this process holds server.maxConnections (${max})`);
  });
}
