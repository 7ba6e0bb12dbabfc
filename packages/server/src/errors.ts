/**
 * The failures the gateway reports in the API's own terms: a documented code, a message and one of
 * the documented detail shapes. The domain (quote/, orders/, chains/) throws these and knows no HTTP
 * status: which status answers a code is decided per operation at the HTTP edge, from the document
 * (src/http/failures.ts).
 *
 * A code's details are typed by `DetailsOf<Code>`: for the codes the document ties to a shape (the
 * public gateway's SDK's, `x-detail-shapes-by-code` of GatewayErrorDetails) that shape alone, so the
 * compiler refuses `new DomainError('INSUFFICIENT_AMOUNT', ..., { minimum, actual })`; for the
 * others any shape or null.
 */
import type { GatewayErrorCodeV4, GatewayErrorDetails, GatewayErrorDetailsOf } from '@swap-gateway/types';

export type ErrorCode = GatewayErrorCodeV4;
export type ErrorDetails = GatewayErrorDetails;
/** The details a failure with `Code` carries: the code's shape where the document ties one. */
export type DetailsOf<Code extends ErrorCode> = GatewayErrorDetailsOf<Code>;

export class DomainError<Code extends ErrorCode = ErrorCode> extends Error {
  constructor(
    readonly code: Code,
    message: string,
    readonly details: NoInfer<DetailsOf<Code>>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** The order is not in a state that allows the call (the sandbox controls: source-sent, outcome). */
export class OrderStateError extends DomainError<'INVALID_REQUEST'> {
  constructor(message: string) {
    super('INVALID_REQUEST', message, { message });
    this.name = 'OrderStateError';
  }
}

export const invalidRequest = (message: string, details: ErrorDetails = { message }) =>
  new DomainError('INVALID_REQUEST', message, details);

export const orderNotFound = (message = 'no order has this id, txid or hash') => new DomainError('ORDER_NOT_FOUND', message, null);

export const invalidOrderArgs = (message: string, details: ErrorDetails) => new DomainError('INVALID_ORDER_ARGS', message, details);

export const quoteAmountTooLow = (minimum: string, actual: string) =>
  new DomainError('QUOTE_AMOUNT_TOO_LOW', 'quoted output is below the minimum the market maker fills', { minimum, actual });

/**
 * A service the gateway depends on (its database, the rate-limit counters' Redis) cannot be reached
 * now: nothing was done, and the same request can be sent again shortly (503 with Retry-After at
 * the HTTP edge).
 */
export class DependencyUnavailable extends Error {
  constructor(
    readonly dependency: 'database' | 'rateLimitStore',
    readonly cause: unknown,
  ) {
    super(`the ${dependency === 'database' ? 'database' : 'rate-limit store'} is unreachable: ${(cause as Error)?.message ?? cause}`);
    this.name = 'DependencyUnavailable';
  }
}

/**
 * The client already holds as many unpaid orders open as it may: one must be paid or expire first.
 * A create-order failure, so a 400 (the description's rule), not a rate limit's 429: sending the
 * same request later does not help once its quote has expired.
 */
export const unpaidOrderLimit = (limit: number, oldestExpiresAt: string) =>
  new DomainError(
    'EXCEEDED_LIMIT',
    `${limit} unpaid orders are open for this client, the most allowed; pay one, or create this order after ${oldestExpiresAt}, when the oldest expires`,
    { limit: String(limit) },
  );
