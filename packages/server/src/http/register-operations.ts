/**
 * Registers every operation of the document as a Fastify route. Each route's schema is a set of
 * markers naming the document's pointers (see validation.ts); each handler comes from
 * src/handlers/ (v4.ts, v3.ts), keyed by operationId, and an operation without a handler stops the
 * server at start-up. A handler returns the body; the status of a success is the one 2xx its
 * operation documents (201 for create-order), set here; failures get theirs in failures.ts.
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

export function registerOperations(app: FastifyInstance, source: GatewayDocument, handlers: OperationHandlers): void {
  const missing = source.operations.filter((operation) => !handlers[operation.operationId]).map((operation) => operation.operationId);
  if (missing.length) throw new Error(`no handler for ${missing.join(', ')}`);
  for (const operation of source.operations) {
    const { handler, preValidation } = handlers[operation.operationId]!;
    const byLocation = (location: string) => operation.parameters.filter((parameter) => parameter.in === location);
    const body = requestBodySchema(operation);
    const success = successStatus(operation);
    app.route({
      method: operation.method as 'GET',
      url: fastifyUrl(operation.path),
      schema: {
        params: { 'x-parameters': byLocation('path'), 'x-operation': operation.operationId },
        querystring: { 'x-parameters': byLocation('query'), 'x-operation': operation.operationId },
        ...(body ? { body: { 'x-schema': body } } : {}),
        response: Object.fromEntries(
          Object.entries(responseSchemas(operation)).map(([status, pointer]) => [status, { 'x-schema': pointer }]),
        ),
      },
      ...(preValidation ? { preValidation } : {}),
      handler(request, reply) {
        reply.code(success);
        return handler.call(this, request, reply);
      },
    });
  }
}

/** The one success status the operation documents. */
function successStatus(operation: Operation): number {
  const successes = Object.keys(operation.responses).filter((status) => /^2\d\d$/.test(status));
  if (successes.length !== 1)
    throw new Error(`${operation.operationId} documents ${successes.length ? successes.join(', ') : 'no'} success statuses, not one`);
  return Number(successes[0]);
}
