/**
 * Registers every operation of the document as a Fastify route. Each route's schema is a set of
 * markers naming the document's pointers (see validation.ts); each handler comes from
 * src/handlers/ (v4.ts, v3.ts), keyed by operationId, and an operation without a handler stops the
 * server at start-up.
 */
import type { FastifyInstance, preValidationAsyncHookHandler, RouteHandlerMethod } from 'fastify';
import type { Operation } from '@swap-gateway/openapi';
import { fastifyUrl, requestBodySchema, responseSchemas, type GatewayDocument } from './document.js';

export interface OperationHandler {
  handler: RouteHandlerMethod;
  /** Runs before validation: for rules that must win over the schema's own answer. */
  preValidation?: preValidationAsyncHookHandler;
}

export type OperationHandlers = Record<string, OperationHandler>;

export function registerOperations(app: FastifyInstance, source: GatewayDocument, handlers: OperationHandlers): Operation[] {
  const missing = source.operations.filter((operation) => !handlers[operation.operationId]).map((operation) => operation.operationId);
  if (missing.length) throw new Error(`no handler for ${missing.join(', ')}`);
  for (const operation of source.operations) {
    const { handler, preValidation } = handlers[operation.operationId]!;
    const byLocation = (location: string) => operation.parameters.filter((parameter) => parameter.in === location);
    const body = requestBodySchema(operation);
    app.route({
      method: operation.method as 'GET',
      url: fastifyUrl(operation.path),
      schema: {
        params: { 'x-parameters': byLocation('path') },
        querystring: { 'x-parameters': byLocation('query') },
        ...(body ? { body: { 'x-schema': body } } : {}),
        response: Object.fromEntries(Object.entries(responseSchemas(operation)).map(([status, pointer]) => [status, { 'x-schema': pointer }])),
      },
      ...(preValidation ? { preValidation } : {}),
      handler,
    });
  }
  return source.operations;
}
