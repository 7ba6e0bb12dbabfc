/**
 * The structured error of the API: `{ code, error, details }`. Every failure a client can cause is
 * thrown as a GatewayError with its documented code, HTTP status and one of the documented detail
 * shapes; anything else becomes INTERNAL_ERROR without internals.
 */
import type { GatewayErrorCodeV4, GatewayErrorDetails } from '@swap-gateway/types';

export type ErrorCode = GatewayErrorCodeV4;
export type ErrorDetails = GatewayErrorDetails;

export class GatewayError extends Error {
  readonly statusCode: number;
  readonly code: ErrorCode;
  readonly details: ErrorDetails;
  /** Extra response headers, e.g. Retry-After or Allow. */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = null, statusCode = 400, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'GatewayError';
    this.code = code;
    this.details = details;
    this.statusCode = statusCode;
    this.headers = headers;
  }

  toBody(): { code: ErrorCode; error: string; details: ErrorDetails } {
    return { code: this.code, error: this.message, details: this.details };
  }
}

export const invalidRequest = (message: string, details: ErrorDetails = { message }) => new GatewayError('INVALID_REQUEST', message, details);
