/**
 * The Fastify application: the document's operations with their validation and response checks,
 * API keys and rate limits, the structured error body for every failure, 404/405 for what the
 * document does not have, a health check, and the sandbox controls.
 */
import {
  answerClientError,
  answerConnectAsRequest,
  ignoreUnknownExpectations,
  lacksHost,
  matchOperation,
  requestMethods,
  type RouteTemplate,
} from '@swap-gateway/openapi';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import { accessPlugin } from './http/access.js';
import { capConnections, connectionOptions } from './http/connections.js';
import { corsPlugin } from './http/cors.js';
import { DependencyUnavailable, DomainError, invalidRequest } from './errors.js';
import { bundledDocument, documentPath } from './http/document.js';
import {
  answerFailure,
  ApiFailure,
  dependencyUnavailable,
  internalError,
  malformedRequest,
  methodNotAllowed,
  operationOf,
  pathNamesNoOperation,
  statusTable,
  unknownPath,
} from './http/failures.js';
import { registerOperations } from './http/register-operations.js';
import { createCompilers } from './http/validation.js';
import type { ApiKeys } from './keys/keys.js';
import type { Log } from './log.js';
import { sandboxPlugin } from './handlers/sandbox.js';
import { v3Operations } from './handlers/v3.js';
import { v4Operations } from './handlers/v4.js';
import type { Services } from './services.js';

export interface AppOptions {
  log: Log;
  keys: ApiKeys;
}

export async function buildApp(services: Services, options: AppOptions): Promise<FastifyInstance> {
  const { config } = services;
  const { log } = options;
  const source = bundledDocument();
  const { operations } = source;
  // Built now, so that a code the document lists under two statuses stops the server at start.
  for (const operation of operations) statusTable(operation);
  // No logger of Fastify's own: src/log.ts.
  const app = Fastify({
    bodyLimit: config.server.bodyLimitBytes,
    ...connectionOptions(config.server),
    // Longer than any URL Node reads (the request line counts against its 16 KiB header limit), so
    // a long path parameter reaches the document's validation like any other value.
    routerOptions: { maxParamLength: 64 * 1024 },
    // Bad percent-encoding in the path: refused by the router before any route runs.
    frameworkErrors: (error, request, reply) => {
      const operation = operationOf(operations, request.raw.method ?? '', request.raw.url ?? '');
      const message = error.code === 'FST_ERR_BAD_URL' ? 'the path is not valid percent-encoding' : 'the request path is malformed';
      const failure = operation ? malformedRequest(operation, message) : pathNamesNoOperation(undefined, message);
      return sendFailure(reply as FastifyReply, failure);
    },
    // Requests Node refuses before Fastify sees them (headers or URL over its limit, broken HTTP):
    // answered as the mock answers them, by @swap-gateway/openapi's rule.
    clientErrorHandler: (error, socket) => answerClientError(operations, error, socket),
  });
  capConnections(app, config.server.maxConnections, log);
  // What Node would answer itself with an empty body (@swap-gateway/openapi's acceptAnyHost): a
  // request without Host gets the documented answer to a request that cannot be read, an
  // expectation Node does not know is served as if there were none.
  ignoreUnknownExpectations(app.server);
  // A CONNECT, which Node would close without an answer, is answered as an unknown method.
  answerConnectAsRequest(app.server);
  app.addHook('onRequest', (request, _reply, done) =>
    lacksHost(request.raw)
      ? done(malformedRequest(operationOf(operations, request.method, request.url), 'an HTTP/1.1 request must name its Host'))
      : done(),
  );
  // The API's bodies are JSON only: a text/plain body is refused for its media type (requestError
  // below), not read as a string that the body's schema then calls "not an object".
  app.removeContentTypeParser('text/plain');
  const compilers = createCompilers(source, log, config.checkResponses);
  app.setValidatorCompiler(compilers.validatorCompiler);
  app.setSerializerCompiler(compilers.serializerCompiler);

  // Graceful close: Fastify stops accepting requests and closes idle connections; a request still in
  // flight tells its client to drop the keep-alive connection, so the server can close after it.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  // The access log: one line per answered request, as an operator reads it. Only when written:
  // the hook makes Fastify time and follow every response.
  // Measured (bench/README.md): a get-quote asked again, at `warn`, 65.1 → 62.5 µs of CPU without it.
  if (log.isLevelEnabled('info'))
    app.addHook('onResponse', (request, reply, done) => {
      log.info(
        {
          reqId: request.id,
          method: request.method,
          url: request.url,
          remoteAddress: request.ip,
          statusCode: reply.statusCode,
          responseTimeMs: reply.elapsedTime,
        },
        'request completed',
      );
      done();
    });

  // First, so that its preflight route (OPTIONS *) stays out of the route table below (which would
  // otherwise allow OPTIONS on every path, and cannot read `*`) and out of the rate limit, and its
  // onRequest hook runs before any that can fail: error answers carry the CORS headers too.
  await app.register(corsPlugin, { config: config.cors, methods: requestMethods(operations) });

  // Every route the app serves (the document's, the sandbox's, the health check), as templates for
  // the document's one matcher, which tells a path with other methods (405) from an unknown one.
  const routeTable: RouteTemplate[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routeTable.push({ method, path: documentPath(route.url) });
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiFailure) return sendFailure(reply, error);
    if (error instanceof DependencyUnavailable) {
      log.warn({ reqId: request.id, err: error }, 'a dependency is unreachable');
      return sendFailure(reply, dependencyUnavailable(error));
    }
    const known = error instanceof DomainError ? error : requestError(error, config.server.bodyLimitBytes, request.headers);
    if (!known) {
      log.error({ reqId: request.id, err: error }, 'unexpected fault');
      return sendFailure(reply, internalError());
    }
    return sendFailure(reply, answerFailure(operationOf(operations, request.method, request.url), known));
  });

  await app.register(accessPlugin, { keys: options.keys, limits: config.rateLimits, log });

  app.setNotFoundHandler({ preHandler: [app.rateLimit(), app.access.refuseBadKey] }, (request, reply) => {
    const path = request.url.split('?')[0]!;
    const match = matchOperation(routeTable, request.method, path);
    if (match.kind === 'method-not-allowed') return sendFailure(reply, methodNotAllowed(request.method, path, match.allowed));
    return sendFailure(reply, unknownPath(`no operation at ${request.method} ${path}`));
  });

  if (services.sandbox) await app.register(sandboxPlugin, { services, log, ...services.sandbox });
  registerOperations(app, source, { ...v4Operations(services), ...v3Operations(services) });

  // Each dependency's state, for a load balancer (503 takes the process out while one is down) and an operator.
  app.get('/health', { config: { rateLimit: false } }, async (_request, reply) => {
    const database = await services.db.ping().then(
      () => 'ok' as const,
      () => 'unavailable' as const,
    );
    const rateLimitStore = app.access.rateLimitStore();
    const healthy = database === 'ok' && rateLimitStore === 'ok';
    if (!healthy) reply.code(503).header('retry-after', '2');
    return { status: healthy ? 'ok' : 'unavailable', storage: services.db.engine, dependencies: { database, rateLimitStore } };
  });

  return app;
}

/**
 * Failures Fastify itself detects (body too large, wrong media type, malformed JSON) as the API's
 * INVALID_REQUEST, answered like every other bad request body (the document gives create-order and
 * register-tx no other failure status, and a client handles them the same way).
 */
function requestError(error: FastifyError, bodyLimit: number, headers: Record<string, unknown>): DomainError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return invalidRequest(`the request body is larger than ${bodyLimit} bytes`, {
        max: String(bodyLimit),
        actual: String(headers['content-length'] ?? 'unknown'),
      });
    // Fastify's parser refuses a `__proto__` or `constructor.prototype` key with the error of
    // broken JSON: the message names both, as the body is refused either way.
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return invalidRequest('the request body is not valid JSON, or has a __proto__ or constructor.prototype key');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return invalidRequest('the request body must be application/json', {
        expected: 'application/json',
        actual: String(headers['content-type'] ?? 'none'),
      });
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500)
    return invalidRequest('the request is malformed', { message: error.message });
  return undefined;
}

const sendFailure = (reply: FastifyReply, failure: ApiFailure) => reply.headers(failure.headers).code(failure.status).send(failure.body());
