/**
 * Cross-origin access for browsers (@fastify/cors): the docs site's request console, opened from its
 * own origin, from any local port, or, when `fileOrigin` allows it, from disk (`file://`, which
 * browsers send as `Origin: null`, as they do for any page in a sandboxed iframe, hence off unless
 * asked for), may call the gateway. Their preflights (OPTIONS on any path) are answered here, before the rate
 * limit and the 404/405 handling; every answer to an allowed origin, errors included, carries the CORS headers
 * and exposes Retry-After and Allow so that a page can read them.
 */
import cors from '@fastify/cors';
import fp from 'fastify-plugin';
import type { GatewayConfig } from '../config/config.js';

/** Request headers a page may send: the API key and a JSON body's type. */
const corsAllowedHeaders = ['Authorization', 'Content-Type'];
/** Response headers a page may read besides the CORS-safelisted ones. */
const corsExposedHeaders = ['Retry-After', 'Allow'];

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether a page of this origin may call the gateway under the configuration. */
export function isAllowedOrigin(origin: string, config: NonNullable<GatewayConfig['cors']>): boolean {
  if (origin === 'null') return config.fileOrigin;
  if (config.origins.includes(origin)) return true;
  if (!config.localhost) return false;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && loopbackHosts.has(url.hostname);
  } catch {
    return false;
  }
}

/**
 * `methods`: the ones the document's operations use (`requestMethods` of @swap-gateway/openapi).
 * Unencapsulated (fastify-plugin): its onRequest hook and preflight route belong to the whole app.
 */
export const corsPlugin = fp<{ config: GatewayConfig['cors']; methods: string[] }>(
  async (app, { config, methods }) => {
    if (!config) return;
    await app.register(cors, {
      origin: (origin, callback) => callback(null, origin !== undefined && isAllowedOrigin(origin, config)),
      methods,
      allowedHeaders: corsAllowedHeaders,
      exposedHeaders: corsExposedHeaders,
      maxAge: 600,
      // An OPTIONS request from an allowed origin without Access-Control-Request-Method gets the same
      // empty 204 rather than the plugin's plain-text 400, which is not the gateway's error body. One
      // without an allowed origin is not a preflight for us: the plugin hands it to the 404/405 handling.
      strictPreflight: false,
    });
  },
  { name: 'gateway-cors', fastify: '5.x' },
);
