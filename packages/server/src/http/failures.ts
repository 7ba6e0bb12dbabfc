/**
 * The documented failure for a request that cannot be served as asked, by operation: the status and
 * code are @swap-gateway/openapi's `malformedRequestAnswer` (400 where documented, get-order's 404,
 * get-routes' 401) and `emptyPathParameterAnswer`. Outside the document (sandbox, health) it is
 * 400; a path that names no operation at all is 404, as every unknown path is.
 */
import { emptyPathParameterAnswer, failureBody, malformedRequestAnswer, matchOperation, type DocumentedFailure, type Operation } from '@swap-gateway/openapi';
import { GatewayError, type ErrorCode, type ErrorDetails } from './errors.js';

/** The operation a raw request line names (HEAD is its GET; an empty segment still names get-order). */
export function operationOf(operations: readonly Operation[], method: string, url: string): Operation | undefined {
  const match = matchOperation(operations, method, url);
  return match.kind === 'operation' ? match.operation : undefined;
}

const failure = (answer: DocumentedFailure, message: string, details: ErrorDetails) => {
  const body = failureBody(answer, message, details);
  return new GatewayError(body.code as ErrorCode, body.error, body.details as ErrorDetails, answer.status);
};

export function malformedRequest(operation: Operation | undefined, message: string, details: ErrorDetails = { message }): GatewayError {
  return failure(malformedRequestAnswer(operation), message, details);
}

/**
 * A path that names no operation of the document (an empty segment, bad percent-encoding outside
 * any operation's parameter) is 404 like any unknown path; on get-order, whose 404 is an unknown
 * id, it is that answer.
 */
export function pathNamesNoOperation(operation: Operation | undefined, message: string): GatewayError {
  const answer = operation && emptyPathParameterAnswer(operation);
  if (answer && answer.code !== 'INVALID_REQUEST') return failure(answer, message, null);
  return new UnknownPathError(`${message}: it names no operation`);
}

/** The 404 of a path outside the document: no operation's documented statuses apply to it. */
class UnknownPathError extends GatewayError {
  constructor(message: string) {
    super('INVALID_REQUEST', message, { message: 'the operations are under /v4 and /v3; V1 and V2 are removed' }, 404);
  }
}

/** A failure answered with a status the operation does not document becomes its documented one. */
export function asDocumented(operation: Operation | undefined, error: GatewayError): GatewayError {
  if (operation === undefined || error instanceof UnknownPathError || String(error.statusCode) in operation.responses) return error;
  return malformedRequest(operation, error.message, error.details);
}
