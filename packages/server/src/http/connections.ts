/**
 * Who names the client (`server` of the configuration), as Fastify's options: the connection's
 * address, or the X-Forwarded-For of the proxies `trustProxy` lists.
 */
import type { GatewayConfig } from '../config/config.js';

export function connectionOptions(server: GatewayConfig['server']) {
  return { trustProxy: server.trustProxy };
}
