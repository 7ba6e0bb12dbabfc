/**
 * Cross-origin access for browsers (the `cors` middleware): the docs site's request console may call
 * the mock from any page, its own origin, another local port or a file opened from disk
 * (`Origin: null`). The mock keeps no state and accepts any well-formed key, so there is nothing a
 * page of another site could read or change through it that the document does not already publish;
 * the sandbox server, which keeps orders, restricts the origins in its configuration instead.
 *
 * The front answers every preflight itself (Prism runs with its own CORS turned off and never sees an
 * OPTIONS request) and puts the same headers on every answer, its own errors included.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from 'cors';

const middleware = cors({
  origin: true,
  methods: ['GET', 'HEAD', 'POST'],
  // `Prefer` picks an example or a documented status (see the README).
  allowedHeaders: ['Authorization', 'Content-Type', 'Prefer'],
  exposedHeaders: ['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Allow', 'sl-violations'],
  maxAge: 600,
});

/** Adds the CORS headers to `res`; resolves true when the request was a preflight, now answered. */
export function applyCors(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  return new Promise((resolve, reject) => {
    middleware(req, res, (error?: unknown) => (error ? reject(error) : resolve(false)));
    // The middleware ends a preflight without calling next.
    if (res.writableEnded) resolve(true);
  });
}
