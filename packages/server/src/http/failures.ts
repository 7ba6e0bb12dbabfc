/**
 * The documented failure for a request that cannot be served as asked, by operation. Most
 * operations document 400 INVALID_REQUEST for that. get-order documents no 400: its only input is
 * the id, and an id that is malformed (bad percent-encoding, a NUL character, empty, too long) is
 * an id no order has, so it is the documented 404 ORDER_NOT_FOUND. get-routes takes no input but
 * its headers, so headers the server cannot read are the documented 401: the API key they may
 * carry cannot be checked. Outside the document (sandbox, health, unknown paths) it is 400.
 */
import type { Operation } from './document.js';
import { GatewayError, type ErrorDetails } from './errors.js';

export class OperationIndex {
  private readonly patterns: Array<{ method: string; pattern: RegExp; operation: Operation }>;

  constructor(operations: Operation[]) {
    // An empty segment still names the operation: GET /v4/get-order/ is get-order without an id.
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

/** A failure answered with a status the operation does not document becomes its documented one. */
export function asDocumented(operation: Operation | undefined, error: GatewayError): GatewayError {
  if (operation === undefined || String(error.statusCode) in operation.responses) return error;
  return malformedRequest(operation, error.message, error.details);
}
