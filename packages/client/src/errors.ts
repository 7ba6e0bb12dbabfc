/**
 * What a call can fail with. An answer that is not 2xx is a `GatewayApiError`, a 2xx answer whose body
 * is not JSON a `GatewayResponseError`; a request that got no answer is a `GatewayNetworkError`, or a
 * `GatewayTimeoutError` when the client stopped waiting. An
 * abort through the caller's `AbortSignal` rejects with the signal's reason, as `fetch` does.
 */
import type { GatewayErrorCodeV4, GatewayErrorDetailsOf, GatewayOrderInfoV3 } from '@swap-gateway/types';

/** The request a failure belongs to. */
export interface GatewayRequestInfo {
  method: string;
  url: string;
}

/** Common base of the client's errors; `kind` tells them apart. */
export abstract class GatewayError extends Error {
  abstract readonly kind: 'http' | 'response' | 'network' | 'timeout';
  // Declared, not defined: the constructor sets them (fields without an initializer would be
  // emitted as class fields that the constructor then overwrites, bytes in every bundle).
  declare readonly method: string;
  declare readonly url: string;

  constructor(message: string, request: GatewayRequestInfo, options?: { cause?: unknown }) {
    super(message, options);
    this.method = request.method;
    this.url = request.url;
  }
}

/**
 * A non-2xx answer. `code`, `error` and `details` are read from the structured error body; when the
 * body is not JSON or not that shape they are undefined and `rawBody` still holds the text. `details`
 * is typed by the code (`GatewayErrorDetailsOf` of @swap-gateway/types): narrowed to one code, it is
 * the shape the document ties to that code, where it ties one. The body is not checked against it.
 */
export class GatewayApiError<Code extends GatewayErrorCodeV4 = GatewayErrorCodeV4> extends GatewayError {
  readonly kind = 'http' as const;
  override readonly name = 'GatewayApiError';
  /** HTTP status of the answer. */
  declare readonly status: number;
  /** Stable error code (V3 operations answer V3 codes, a subset of V4's). */
  declare readonly code: Code | undefined;
  /** Human-readable message of the error body. */
  declare readonly error: string | undefined;
  /** One of the detail shapes (the code's own where the document ties one), or null; undefined when the body has no `details`. */
  declare readonly details: GatewayErrorDetailsOf<Code> | undefined;
  /** The parsed JSON body, or undefined when it is not JSON. */
  declare readonly body: unknown;
  /** The body as received. */
  declare readonly rawBody: string;
  /** The delay the server asked for with `Retry-After`, in milliseconds. */
  declare readonly retryAfterMs: number | undefined;

  constructor(request: GatewayRequestInfo, status: number, rawBody: string, retryAfterMs?: number) {
    const body = parseJson(rawBody);
    // Reading the fields of whatever was parsed (a primitive or an array has none of them) is the
    // check that the body is the structured error: an object with a string `code` or `error`.
    const fields = (body ?? {}) as { code?: unknown; error?: unknown; details?: unknown };
    const code = typeof fields.code === 'string' ? (fields.code as Code) : undefined;
    const error = typeof fields.error === 'string' ? fields.error : undefined;
    const structured = code !== undefined || error !== undefined;
    const summary = structured ? [code, error].filter((part) => part !== undefined).join(': ') : rawBody.slice(0, 200);
    super(`${request.method} ${request.url} answered ${status}${summary ? ` ${summary}` : ''}`, request);
    this.status = status;
    this.rawBody = rawBody;
    this.body = body;
    this.code = code;
    this.error = error;
    this.details = structured ? (fields.details as GatewayErrorDetailsOf<Code> | undefined) : undefined;
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * A 2xx answer whose body is not JSON, or is empty, where the document promises a JSON body: a proxy's
 * page, a wrong `baseUrl`. `cause` is the parser's error; `rawBody` the body as received.
 */
export class GatewayResponseError extends GatewayError {
  readonly kind = 'response' as const;
  override readonly name = 'GatewayResponseError';
  declare readonly status: number;
  declare readonly rawBody: string;

  constructor(request: GatewayRequestInfo, status: number, rawBody: string, cause?: unknown) {
    super(
      `${request.method} ${request.url} answered ${status} with ${rawBody ? `a body that is not JSON: ${rawBody.slice(0, 200)}` : 'an empty body'}`,
      request,
      { cause },
    );
    this.status = status;
    this.rawBody = rawBody;
  }
}

/** The request got no answer: refused connection, reset socket, DNS failure, CORS refusal... */
export class GatewayNetworkError extends GatewayError {
  readonly kind = 'network' as const;
  override readonly name = 'GatewayNetworkError';

  constructor(request: GatewayRequestInfo, cause: unknown) {
    super(`${request.method} ${request.url} failed: ${describe(cause)}`, request, { cause });
  }
}

/**
 * The client stopped waiting: a request had no complete answer within `timeoutMs`, or
 * `waitForOrder` reached its own `timeoutMs` (then `lastOrder` is the last order it read).
 */
export class GatewayTimeoutError extends GatewayError {
  readonly kind = 'timeout' as const;
  override readonly name = 'GatewayTimeoutError';
  declare readonly timeoutMs: number;
  declare readonly lastOrder: GatewayOrderInfoV3 | undefined;

  constructor(message: string, request: GatewayRequestInfo, timeoutMs: number, lastOrder?: GatewayOrderInfoV3) {
    super(message, request);
    this.timeoutMs = timeoutMs;
    this.lastOrder = lastOrder;
  }
}

/**
 * A `GatewayApiError` as a union over its code, which `isGatewayApiError(error)` narrows to: checking
 * `code` (`if`, `switch`) narrows `details` to that code's type, e.g. `{ expected, actual }` for
 * `INSUFFICIENT_AMOUNT`. `code` is undefined when the body carries none (register-tx's body may have
 * only `error` and `details`) or is not the structured error.
 */
export type GatewayApiErrorOfCode =
  | { [Code in GatewayErrorCodeV4]: GatewayApiError<Code> & { readonly code: Code } }[GatewayErrorCodeV4]
  | (GatewayApiError & { readonly code: undefined });

/** Any error of the client, discriminated by `kind`. */
export type GatewayClientError = GatewayApiError | GatewayResponseError | GatewayNetworkError | GatewayTimeoutError;

/** Whether `value` is one of the client's errors. */
export function isGatewayError(value: unknown): value is GatewayClientError {
  return value instanceof GatewayError;
}

/**
 * Whether `value` is an error answer of the API, optionally with one code:
 * `if (isGatewayApiError(e, 'MISSING_REFUND_ADDRESS')) ...` narrows `e.code` to that code, and
 * `e.details` to its type. Without a code, `e` is a `GatewayApiErrorOfCode`, narrowed by `e.code`.
 */
export function isGatewayApiError(value: unknown): value is GatewayApiErrorOfCode;
export function isGatewayApiError<Code extends GatewayErrorCodeV4>(
  value: unknown,
  code: Code,
): value is GatewayApiError<Code> & { readonly code: Code };
export function isGatewayApiError(value: unknown, code?: GatewayErrorCodeV4): value is GatewayApiError {
  return value instanceof GatewayApiError && (code === undefined || value.code === code);
}

export function isGatewayNetworkError(value: unknown): value is GatewayNetworkError {
  return value instanceof GatewayNetworkError;
}

export function isGatewayTimeoutError(value: unknown): value is GatewayTimeoutError {
  return value instanceof GatewayTimeoutError;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describe(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  // Node's fetch reports "fetch failed" and keeps the reason (ECONNREFUSED, ...) in its cause.
  const inner = cause.cause instanceof Error ? `: ${cause.cause.message}` : '';
  return `${cause.message}${inner}`;
}
