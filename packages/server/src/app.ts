/**
 * The Fastify application: the document's operations with their validation and response checks,
 * API keys and rate limits, the structured error body for every failure, 404/405 for what the
 * document does not have, a health check, and the sandbox controls.
 */
import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { registerAccess } from './http/access.js';
import { readDocument, type GatewayDocument } from './http/document.js';
import { GatewayError } from './http/errors.js';
import { registerDocumentRoutes } from './http/routes.js';
import { createCompilers } from './http/validation.js';
import type { ApiKeys } from './keys/keys.js';
import { sandboxRoutes } from './routes/sandbox.js';
import { v3Operations } from './routes/v3.js';
import { v4Operations } from './routes/v4.js';
import type { Services } from './services.js';

export interface AppOptions {
  logger?: FastifyServerOptions['logger'];
  keys: ApiKeys;
  document?: GatewayDocument;
}

export async function buildApp(services: Services, options: AppOptions): Promise<FastifyInstance> {
  const { config } = services;
  const app = Fastify({ logger: options.logger ?? false, bodyLimit: config.server.bodyLimitBytes });
  const source = options.document ?? readDocument();
  const compilers = createCompilers(source, app.log);
  app.setValidatorCompiler(compilers.validatorCompiler);
  app.setSerializerCompiler(compilers.serializerCompiler);

  // Graceful close: Fastify stops accepting requests and closes idle connections; a request still in
  // flight tells its client to drop the keep-alive connection, so the server can close after it.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });

  const routeTable: Array<{ method: string; pattern: RegExp }> = [];
  app.addHook('onRoute', (route) => {
    const pattern = new RegExp(`^${route.url.replace(/:[^/]+/g, '[^/]+')}$`);
    for (const method of [route.method].flat()) routeTable.push({ method, pattern });
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = toGatewayError(error, config.server.bodyLimitBytes, request.headers);
    if (!known) {
      request.log.error({ err: error }, 'unexpected fault');
      return reply.code(500).send(new GatewayError('INTERNAL_ERROR', 'an unexpected error occurred', null, 500).toBody());
    }
    return reply.headers(known.headers).code(known.statusCode).send(known.toBody());
  });

  await registerAccess(app, { keys: options.keys, limits: config.rateLimits });

  app.setNotFoundHandler({ preHandler: app.rateLimit() }, (request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = [...new Set(routeTable.filter((route) => route.pattern.test(path)).map((route) => route.method))];
    if (allowed.length) {
      const error = new GatewayError('INVALID_REQUEST', `${request.method} is not allowed on ${path}`, { expected: allowed.join(', '), actual: request.method }, 405, { allow: allowed.join(', ') });
      return reply.headers(error.headers).code(405).send(error.toBody());
    }
    return reply.code(404).send(new GatewayError('INVALID_REQUEST', `no operation at ${request.method} ${path}`, { message: 'the operations are under /v4 and /v3; V1 and V2 are removed' }, 404).toBody());
  });

  if (config.sandbox) await sandboxRoutes(app, services);
  registerDocumentRoutes(app, source, { ...v4Operations(services), ...v3Operations(services) });

  app.get('/health', { config: { rateLimit: false } }, async () => {
    await services.db.query('SELECT 1');
    return { status: 'ok', storage: services.db.engine };
  });

  return app;
}

/**
 * Failures Fastify itself detects (body too large, wrong media type, malformed JSON) as documented
 * errors. They are 400 like every other bad request body: the document gives create-order and
 * register-tx no other failure status, and a client handles them the same way.
 */
function toGatewayError(error: FastifyError, bodyLimit: number, headers: Record<string, unknown>): GatewayError | undefined {
  if (error instanceof GatewayError) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new GatewayError('INVALID_REQUEST', `the request body is larger than ${bodyLimit} bytes`, { max: String(bodyLimit), actual: String(headers['content-length'] ?? 'unknown') }, 400);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new GatewayError('INVALID_REQUEST', 'the request body must be application/json', { expected: 'application/json', actual: String(headers['content-type'] ?? 'none') }, 400);
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return new GatewayError('INVALID_REQUEST', 'the request is malformed', { message: error.message }, 400);
  }
  return undefined;
}
