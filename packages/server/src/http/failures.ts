/**
 * Which HTTP status answers which failure: decided here and nowhere else.
 *
 * The domain throws DomainErrors (src/errors.ts): a code, a message, details, no status. On an
 * operation of the document, a code answers with the failure status whose examples list it (the
 * document's responses name, per status, the codes they carry: get-order's 404 ORDER_NOT_FOUND,
 * register-tx's 400 ORDER_NOT_FOUND, ...). The statuses of the HTTP edge itself, which every
 * operation documents the same way, are not the domain's: 401 (the API key), 429 (the rate limit),
 * 500 (an unexpected fault) and 503 (a dependency unreachable) answer only the failures below. (A
 * client's limit of unpaid orders is create-order's 400 EXCEEDED_LIMIT: src/errors.ts.)
 *
 * A code the operation's examples do not list (EXCEEDED_LIMIT when get-quote's amount is too
 * large, a request the server cannot read) is the operation's answer for a request it cannot serve
 * as asked: 400 where documented, with the code kept; where the operation has no 400, the status
 * and code @swap-gateway/openapi's `malformedRequestAnswer` gives it (get-order: an id that cannot
 * be read is an id no order has, the documented 404 ORDER_NOT_FOUND; get-routes, which takes no
 * input but its headers: the documented 401, since the API key they may carry cannot be checked),
 * the rule the mock's front applies too (and both answer requests Node itself refuses by the
 * package's `answerClientError`). Outside the document (the sandbox controls, the health check) a failure is
 * 400, an unknown order 404, an order in a state that does not allow the call 409; a path that names
 * no operation at all is 404, as every unknown path is.
 */
import {
  documentedCodes,
  emptyPathParameterAnswer,
  failureBody,
  failureStatuses,
  malformedRequestAnswer,
  matchOperation,
  type DocumentedFailure,
  type Operation,
} from '@swap-gateway/openapi';
import {
  type DependencyUnavailable,
  type DetailsOf,
  type DomainError,
  invalidRequest,
  OrderStateError,
  type ErrorCode,
  type ErrorDetails,
} from '../errors.js';

/** The operation a raw request line names (HEAD is its GET; an empty segment still names get-order). */
export function operationOf(operations: readonly Operation[], method: string, url: string): Operation | undefined {
  const match = matchOperation(operations, method, url);
  return match.kind === 'operation' ? match.operation : undefined;
}

/**
 * A failure as it is answered: status, headers (Retry-After, Allow) and the `{ code, error, details }`
 * body, its details typed by its code as a DomainError's are (`DetailsOf`).
 */
export class ApiFailure<Code extends ErrorCode = ErrorCode> extends Error {
  constructor(
    readonly status: number,
    readonly code: Code,
    message: string,
    readonly details: NoInfer<DetailsOf<Code>>,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiFailure';
  }

  body(): { code: ErrorCode; error: string; details: ErrorDetails } {
    return { code: this.code, error: this.message, details: this.details };
  }
}

/** The statuses of the HTTP edge: the same on every operation, answered only by the failures below. */
export const edgeStatuses: readonly string[] = ['401', '429', '500', '503'];

const tables = new WeakMap<Operation, ReadonlyMap<string, number>>();

/**
 * The operation's table: the status that answers each code its failure examples list. A code listed
 * under two of the domain's statuses would leave the status undecided, so it stops the server.
 */
export function statusTable(operation: Operation): ReadonlyMap<string, number> {
  let table = tables.get(operation);
  if (table) return table;
  const built = new Map<string, number>();
  for (const status of failureStatuses(operation)) {
    if (edgeStatuses.includes(status)) continue;
    for (const code of documentedCodes(operation, status)) {
      const other = built.get(code);
      if (other !== undefined)
        throw new Error(`${operation.operationId} lists ${code} under ${other} and ${status}: its status is undecided`);
      built.set(code, Number(status));
    }
  }
  table = built;
  tables.set(operation, table);
  return table;
}

/** The answer to a domain failure on `operation` (undefined outside the document). */
export function answerFailure(operation: Operation | undefined, error: DomainError): ApiFailure {
  if (operation === undefined) {
    const status = error instanceof OrderStateError ? 409 : error.code === 'ORDER_NOT_FOUND' ? 404 : 400;
    return new ApiFailure(status, error.code, error.message, error.details);
  }
  const listed = statusTable(operation).get(error.code);
  if (listed !== undefined) return new ApiFailure(listed, error.code, error.message, error.details);
  if ('400' in operation.responses) return new ApiFailure(400, error.code, error.message, error.details);
  return documented(malformedRequestAnswer(operation), error.message, error.details);
}

/** A documented answer (@swap-gateway/openapi's edge rules): INVALID_REQUEST with the message, or the example of its code. */
function documented(answer: DocumentedFailure, message: string, details: ErrorDetails): ApiFailure {
  const body = failureBody(answer, message, details);
  return new ApiFailure(answer.status, body.code as ErrorCode, body.error, body.details as ErrorDetails);
}

/** A request path the router cannot read (bad percent-encoding), on the operation it names. */
export const malformedRequest = (operation: Operation | undefined, message: string) => answerFailure(operation, invalidRequest(message));

/**
 * A path that names no operation of the document (an empty segment, bad percent-encoding outside
 * any operation's parameter) is 404 like any unknown path; on get-order, whose 404 is an unknown
 * id, it is that answer.
 */
export function pathNamesNoOperation(operation: Operation | undefined, message: string): ApiFailure {
  const answer = operation && emptyPathParameterAnswer(operation);
  if (answer && answer.code !== 'INVALID_REQUEST') return documented(answer, message, null);
  return unknownPath(`${message}: it names no operation`);
}

/** The 404 of a path outside the document: no operation's documented statuses apply to it. */
export const unknownPath = (message: string) =>
  new ApiFailure(404, 'INVALID_REQUEST', message, { message: 'the operations are under /v4 and /v3; V1 and V2 are removed' });

export const methodNotAllowed = (method: string, path: string, allowed: string[]) =>
  new ApiFailure(
    405,
    'INVALID_REQUEST',
    `${method} is not allowed on ${path}`,
    { expected: allowed.join(', '), actual: method },
    { allow: allowed.join(', ') },
  );

/** An API key that is malformed or unknown. */
export const unauthorized = (message: string, details: ErrorDetails) => new ApiFailure(401, 'INVALID_REQUEST', message, details);

/** Beyond the rate limit; @fastify/rate-limit adds the Retry-After header, a limit counted without it passes `retryAfterSeconds`. */
export const rateLimited = (max: number, windowSeconds: number, retryAfterSeconds?: number) =>
  new ApiFailure(
    429,
    'EXCEEDED_LIMIT',
    `rate limit of ${max} requests per ${windowSeconds} seconds exceeded; retry after the Retry-After delay`,
    { limit: String(max) },
    retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) },
  );

/** A caller the sandbox controls do not serve (outside the document, whose codes have no "forbidden"). */
export const forbidden = (message: string, details: ErrorDetails) => new ApiFailure(403, 'INVALID_REQUEST', message, details);

/** An unexpected fault: nothing of it is told. */
export const internalError = () => new ApiFailure(500, 'INTERNAL_ERROR', 'an unexpected error occurred', null);

/** Seconds a client is told to wait while a dependency is unreachable: a restart or a failover takes a few. */
const unavailableRetryAfterSeconds = 2;

/** 503: a dependency is unreachable; the request did nothing and may be sent again after Retry-After. */
export const dependencyUnavailable = (error: DependencyUnavailable) =>
  new ApiFailure(
    503,
    'INTERNAL_ERROR',
    `the gateway's ${error.dependency === 'database' ? 'database' : 'rate-limit store'} is unreachable; nothing was done, try again after Retry-After seconds`,
    null,
    { 'retry-after': String(unavailableRetryAfterSeconds) },
  );
