/**
 * The documented failure for a request that cannot be served as asked, by operation. Most
 * operations document 400 INVALID_REQUEST for that. get-order documents no 400: its only input is
 * the id, and an id that is malformed (bad percent-encoding, a NUL character, empty, too long) is
 * an id no order has, so it is the documented 404 ORDER_NOT_FOUND. get-routes takes no input but
 * its headers, so headers the server cannot read are the documented 401: the API key they may
 * carry cannot be checked. Outside the document (sandbox, health) it is 400; a path that names
 * no operation at all is 404, as every unknown path is.
 */
import type { Operation } from './document.js';
import { GatewayError, type ErrorDetails } from './errors.js';

export class OperationIndex {
  private readonly patterns: Array<{ method: string; pattern: RegExp; operation: Operation }>;

  constructor(operations: Operation[]) {
    // Empty segments match too, so that get-order answers GET /v4/get-order/ with its own 404.
    this.patterns = operations.map((operation) => ({ method: operation.method, pattern: new RegExp(`^${operation.url.replace(/:[^/]+/g, '[^/?]*')}(\\?|$)`), operation }));
  }

  /** The operation a raw request line names; HEAD is its GET. */
  find(method: string, url: string): Operation | undefined {
    const wanted = method === 'HEAD' ? 'GET' : method;
    return this.patterns.find((entry) => entry.method === wanted && entry.pattern.test(url))?.operation;
  }
}

export function malformedRequest(operation: Operation | undefined, message: string, details: ErrorDetails = { message }): GatewayError {
  const documents = (status: string) => operation === undefined || status in operation.responses;
  if (documents('400')) return new GatewayError('INVALID_REQUEST', message, details, 400);
  if (documents('404')) return new GatewayError('ORDER_NOT_FOUND', 'no order has this id, txid or hash', null, 404);
  return new GatewayError('INVALID_REQUEST', message, details, 401);
}

/**
 * A path that names no operation of the document (an empty segment, bad percent-encoding outside
 * any operation's parameter) is 404 like any unknown path; on get-order, whose 404 is an unknown
 * id, it is that answer.
 */
export function pathNamesNoOperation(operation: Operation | undefined, message: string): GatewayError {
  if (operation && '404' in operation.responses) return new GatewayError('ORDER_NOT_FOUND', 'no order has this id, txid or hash', null, 404);
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
