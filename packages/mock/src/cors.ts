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

/**
 * The CORS handling for the methods the document's operations use (`requestMethods`): a function
 * that adds the CORS headers to `res` and resolves true when the request was a preflight, now answered.
 */
export function createCors(methods: string[]): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const middleware = cors({
    origin: true,
    methods,
    // `Prefer` picks an example or a documented status (see the README).
    allowedHeaders: ['Authorization', 'Content-Type', 'Prefer'],
    exposedHeaders: ['Retry-After', 'Allow', 'sl-violations'],
    maxAge: 600,
  });
  return (req, res) => {
    // Without an Origin an OPTIONS is no preflight, but a method the path lacks: 405 with Allow on
    // an operation's path, 404 elsewhere, as the server answers it.
    if (req.method === 'OPTIONS' && req.headers.origin === undefined) return Promise.resolve(false);
    return new Promise((resolve, reject) => {
      middleware(req, res, (error?: unknown) => (error ? reject(error) : resolve(false)));
      // The middleware ends a preflight without calling next.
      if (res.writableEnded) resolve(true);
    });
  };
}
