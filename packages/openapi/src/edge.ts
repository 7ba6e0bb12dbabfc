/**
 * The rules at the API's edge that the document states once and the server, the mock, the client
 * and the contract suite all apply: the API key and how the Authorization header carries it, which
 * values cannot be read (a NUL character), and which documented status and code answer a request
 * that cannot be read.
 */
import { jsonContent, type Operation } from './operations.js';

/**
 * The length of an API key: "Optional API key, exactly 32 characters, sent as `Authorization:
 * Bearer <API_KEY>`" (`apiKeyPointer`). The document says it in prose only; this package's tests
 * hold the sentence and this number together.
 */
export const apiKeyLength = 32;
export const apiKeyPointer = '#/components/securitySchemes/apiKey';

/**
 * The key an `Authorization` header presents, or the documented 401 body refusing it. The scheme is
 * `bearer` (`apiKeyPointer`), which RFC 7235 makes case-insensitive and RFC 6750 separates from the
 * key by one or more spaces: `Bearer <key>`, `bearer <key>` and `Bearer  <key>` present the same key.
 */
export function readApiKey(header: string): { key: string } | { refusal: ErrorBody } {
  const match = /^bearer +(.*)$/i.exec(header);
  if (!match) {
    const error = 'the Authorization header must be "Bearer <API key>"';
    return { refusal: { code: 'INVALID_REQUEST', error, details: { expected: 'Bearer <API key>', actual: header.split(' ')[0] ?? '' } } };
  }
  const key = match[1]!;
  if (key.length !== apiKeyLength) {
    return {
      refusal: {
        code: 'INVALID_REQUEST',
        error: `the API key must be exactly ${apiKeyLength} characters`,
        details: { expected: String(apiKeyLength), actual: String(key.length) },
      },
    };
  }
  return { key };
}

/**
 * Whether a value (a parameter's text, a parsed JSON body, its keys included) holds a NUL character:
 * such a request cannot be read (`malformedRequestAnswer`). Stores such as PostgreSQL cannot hold
 * U+0000, so the value could match nothing stored.
 */
export function containsNul(value: unknown): boolean {
  // Iterative: a 64 KiB body can nest deeper than the call stack goes.
  const pending = [value];
  while (pending.length) {
    const item = pending.pop();
    if (typeof item === 'string' && item.includes('\u0000')) return true;
    if (item === null || typeof item !== 'object') continue;
    for (const [key, nested] of Object.entries(item)) {
      if (key.includes('\u0000')) return true;
      pending.push(nested);
    }
  }
  return false;
}

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
export const failureStatuses = (operation: Operation): string[] =>
  Object.keys(operation.responses).filter((status) => Number(status) >= 400);

/** The error bodies the examples of one of the operation's responses show. */
export function documentedErrorBodies(operation: Operation, status: string): ErrorBody[] {
  return Object.values(jsonContent(operation.responses[status])?.examples ?? {})
    .map(({ value }) => value as ErrorBody | undefined)
    .filter((body): body is ErrorBody => typeof body?.code === 'string');
}

/** The codes the examples of one of the operation's responses show: the codes that status carries. */
export const documentedCodes = (operation: Operation, status: string): string[] => [
  ...new Set(documentedErrorBodies(operation, status).map((body) => body.code)),
];

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
  throw new Error(
    `${operation.operationId} ${status}: its examples show ${codes.size ? [...codes].join(', ') : 'no code'}, not one code for a request that cannot be read`,
  );
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
  if (status === undefined)
    throw new Error(`${operation.operationId} documents neither 400, 404 nor 401 for a request that cannot be read`);
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
