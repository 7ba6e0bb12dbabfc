/**
 * The rules at the API's edge that the document states once and the server, the mock, the client
 * and the contract suite all apply: the API key's length, and which documented status and code
 * answer a request that cannot be read.
 */
import { jsonContent, type Operation } from './operations.js';

/**
 * The length of an API key: "Optional API key, exactly 32 characters, sent as `Authorization:
 * Bearer <API_KEY>`" (`apiKeyPointer`). The document says it in prose only; this package's tests
 * hold the sentence and this number together.
 */
export const apiKeyLength = 32;
export const apiKeyPointer = '#/components/securitySchemes/apiKey';

/** A documented failure: its HTTP status and the `code` of its body. */
export interface DocumentedFailure {
  status: number;
  code: string;
  /** For a code other than INVALID_REQUEST: the body of the example that shows it. */
  example?: ErrorBody;
}

export interface ErrorBody {
  code: string;
  error: string;
  details: unknown;
}

/** The failure statuses the operation documents (4xx and 5xx), in document order. */
export const failureStatuses = (operation: Operation): string[] => Object.keys(operation.responses).filter((status) => Number(status) >= 400);

/** The error bodies the examples of one of the operation's responses show. */
export function documentedErrorBodies(operation: Operation, status: string): ErrorBody[] {
  return Object.values(jsonContent(operation.responses[status])?.examples ?? {})
    .map(({ value }) => value as ErrorBody | undefined)
    .filter((body): body is ErrorBody => typeof body?.code === 'string');
}

/** The codes the examples of one of the operation's responses show: the codes that status carries. */
export const documentedCodes = (operation: Operation, status: string): string[] => [...new Set(documentedErrorBodies(operation, status).map((body) => body.code))];

/**
 * The code a status of the operation answers an unreadable request with, read from the examples
 * of that response: INVALID_REQUEST where they show it, else the one code they show (get-order's
 * 404 is ORDER_NOT_FOUND), with that example.
 */
function failureOf(operation: Operation, status: string): DocumentedFailure {
  const bodies = documentedErrorBodies(operation, status);
  const codes = new Set(bodies.map((body) => body.code));
  if (codes.has('INVALID_REQUEST')) return { status: Number(status), code: 'INVALID_REQUEST' };
  if (codes.size === 1) return { status: Number(status), code: bodies[0]!.code, example: bodies[0]! };
  throw new Error(`${operation.operationId} ${status}: its examples show ${codes.size ? [...codes].join(', ') : 'no code'}, not one code for a request that cannot be read`);
}

/**
 * The error body of a documented failure: INVALID_REQUEST says what was wrong with the request;
 * another code (get-order's ORDER_NOT_FOUND) says what its documented example says.
 */
export function failureBody(failure: DocumentedFailure, message: string, details: unknown = { message }): ErrorBody {
  return failure.example ?? { code: failure.code, error: message, details };
}

/**
 * The answer to a request for an operation that cannot be read as asked: bad percent-encoding in
 * its path or query, a NUL character, headers too large for the server, broken HTTP. It is the
 * operation's documented 400 where it has one. get-order documents no 400: its only input is the
 * id, and an id that cannot be read is an id no order has, so it is the documented 404. get-routes
 * takes no input but its headers, so headers that cannot be read are its documented 401: the API
 * key they may carry cannot be checked. Outside the document (no operation) it is 400.
 */
export function malformedRequestAnswer(operation: Operation | undefined): DocumentedFailure {
  if (operation === undefined) return { status: 400, code: 'INVALID_REQUEST' };
  const status = ['400', '404', '401'].find((candidate) => candidate in operation.responses);
  if (status === undefined) throw new Error(`${operation.operationId} documents neither 400, 404 nor 401 for a request that cannot be read`);
  return failureOf(operation, status);
}

/**
 * The answer to a path whose parameter segment is empty (`GET /v4/get-orders/`): it names no
 * operation, so it is 404 like any unknown path, except on an operation whose 404 is documented
 * (get-order, where an empty id is an id no order has): that 404 and its code.
 */
export function emptyPathParameterAnswer(operation: Operation): DocumentedFailure {
  return '404' in operation.responses ? failureOf(operation, '404') : { status: 404, code: 'INVALID_REQUEST' };
}
